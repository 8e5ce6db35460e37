import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PDFDocumentLoadingTask } from 'pdfjs-dist/legacy/build/pdf.mjs';

type Pdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

const require = createRequire(import.meta.url);
const pdfjsRoot = dirname(require.resolve('pdfjs-dist/package.json'));

/** pdfjs wants directory "URLs" ending in a slash; in Node it reads them with fs, so plain paths work. */
function resourceDir(name: string): string {
  return join(pdfjsRoot, name) + '/';
}

/** pdfjs's VerbosityLevel: 0 errors, 1 warnings (printed with console.log), 5 infos. */
export type PdfjsVerbosity = 0 | 1 | 5;

let loading: Promise<Pdfjs> | undefined;

/**
 * pdfjs is large (a few MB of JavaScript); it is loaded on first use so that importing this library for
 * looksLikePdf or chunkPage costs nothing.
 *
 * Node has no Web Workers, so pdfjs runs its parser "worker" on the calling thread (its fake worker), importing it
 * from GlobalWorkerOptions.workerSrc. That defaults to a path relative to pdf.mjs, which breaks as soon as the code
 * is bundled or moved; pointing it at the resolved file makes it hold everywhere. Parsing therefore blocks this
 * thread while it runs: callers that must stay responsive run extraction in a worker thread or a stage process.
 */
export function loadPdfjs(): Promise<Pdfjs> {
  loading ??= (async () => {
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    pdfjs.GlobalWorkerOptions.workerSrc = pathToFileURL(require.resolve('pdfjs-dist/legacy/build/pdf.worker.mjs')).href;
    return pdfjs;
  })().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/**
 * Loads pdfjs and its parser "worker" module now rather than with the first document: a process that limits the
 * CPU time of each file must not charge a few seconds of module loading to whichever file comes first.
 */
export async function preloadPdfjs(): Promise<void> {
  const pdfjs = await loadPdfjs();
  // The same URL pdfjs imports its fake worker from, so that import is then answered from the module cache.
  await import(pdfjs.GlobalWorkerOptions.workerSrc);
}

/**
 * Starts parsing a PDF held in memory, with every resource pdfjs may need read from the installed pdfjs-dist
 * folders and nothing fetched: no network, no eval.
 */
export async function startLoading(bytes: Uint8Array, verbosity: PdfjsVerbosity = 0): Promise<PDFDocumentLoadingTask> {
  const pdfjs = await loadPdfjs();
  return pdfjs.getDocument({
    // pdfjs transfers the array it is given to its worker, which detaches it; a copy leaves the caller's intact.
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    // Resources go through the Node binary-data factory (fs.readFile on the paths below), never fetch().
    useWorkerFetch: false,
    standardFontDataUrl: resourceDir('standard_fonts'),
    cMapUrl: resourceDir('cmaps'),
    cMapPacked: true,
    wasmUrl: resourceDir('wasm'),
    // No iccUrl: pdfjs reads ICC profiles with a synchronous XMLHttpRequest that Node lacks; CMYK images fall back
    // to pdfjs's built-in conversion, which is fine for OCR.
    useSystemFonts: false,
    disableFontFace: true,
    enableXfa: false,
    disableRange: true,
    disableStream: true,
    disableAutoFetch: true,
    verbosity,
  });
}
