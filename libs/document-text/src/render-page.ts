import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { corrupt, invalidOption, pageOutOfRange, renderUnavailable } from './errors.js';
import { withPdf, type OpenOptions } from './open-pdf.js';
import { preloadPdfjs } from './pdfjs-runtime.js';
import type { RenderOptions } from './types.js';

type Canvas = typeof import('@napi-rs/canvas');
/** pdfjs types its target as a DOM canvas; in Node it draws on @napi-rs/canvas, which implements that API. */
type RenderCanvas = Parameters<PDFPageProxy['render']>[0]['canvas'];

export const DEFAULT_RENDER_SCALE = 2;
export const DEFAULT_RENDER_MAX_SIDE = 2048;

let canvasModule: Promise<Canvas> | undefined;

/**
 * @napi-rs/canvas is an optional dependency of pdfjs-dist with prebuilt binaries for common platforms only; where
 * it is missing, rendering (and so OCR of scans) is unavailable but text extraction still works.
 */
function loadCanvas(): Promise<Canvas> {
  canvasModule ??= import('@napi-rs/canvas').catch((error: unknown) => {
    canvasModule = undefined;
    throw renderUnavailable(error);
  });
  return canvasModule;
}

/** Loads everything reading and rendering a PDF needs (see preloadPdfjs); rendering may be unavailable, reading not. */
export async function preloadDocumentReading(): Promise<void> {
  await Promise.all([preloadPdfjs(), loadCanvas().catch(() => undefined)]);
}

/**
 * Renders one page (1-based) to a PNG on a white background, for OCR of scanned pages. The image is `scale` pixels
 * per PDF point, lowered when needed so that its longer side is at most `maxSide` pixels.
 */
export function renderPage(bytes: Uint8Array, pageNumber: number, options: RenderOptions = {}): Promise<Buffer> {
  return renderPageWith(bytes, pageNumber, options, {});
}

/** renderPage with control over pdfjs's logging, for tests that watch its warnings; not exported by the library. */
export async function renderPageWith(bytes: Uint8Array, pageNumber: number, options: RenderOptions, open: OpenOptions): Promise<Buffer> {
  const scale = options.scale ?? DEFAULT_RENDER_SCALE;
  const maxSide = options.maxSide ?? DEFAULT_RENDER_MAX_SIDE;
  if (!(Number.isFinite(scale) && scale > 0)) throw invalidOption('scale', scale, 'a positive number');
  if (!Number.isInteger(maxSide) || maxSide < 1) throw invalidOption('maxSide', maxSide, 'a positive integer');
  if (!Number.isInteger(pageNumber) || pageNumber < 1) throw invalidOption('pageNumber', pageNumber, 'an integer from 1');
  const canvas = await loadCanvas();
  return withPdf(bytes, async (doc) => {
    if (pageNumber > doc.numPages) throw pageOutOfRange(pageNumber, doc.numPages);
    return drawPage(canvas, doc, pageNumber, scale, maxSide);
  }, open);
}

async function drawPage(canvas: Canvas, doc: PDFDocumentProxy, pageNumber: number, scale: number, maxSide: number): Promise<Buffer> {
  let page;
  try {
    page = await doc.getPage(pageNumber);
  } catch (error) {
    throw corrupt(error, { pageNumber });
  }
  try {
    const natural = page.getViewport({ scale: 1 });
    const fitted = Math.min(scale, maxSide / Math.max(natural.width, natural.height));
    const viewport = page.getViewport({ scale: fitted });
    const target = canvas.createCanvas(Math.max(1, Math.round(viewport.width)), Math.max(1, Math.round(viewport.height)));
    try {
      // pdfjs paints the page white before drawing, so the PNG has no transparency to confuse OCR.
      await page.render({ canvas: target as unknown as RenderCanvas, viewport }).promise;
    } catch (error) {
      throw corrupt(error, { pageNumber });
    }
    return await target.encode('png');
  } finally {
    page.cleanup();
  }
}
