import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { MemoryServiceError } from '@memory/platform';
import { BGE_SMALL_EN_V15_Q, findRepoRoot, requireModelFiles, resolveModelDir } from './model-files.js';
import { createOnnxEmbedder } from './onnx-embedder.js';

async function rejection(promise: Promise<unknown>): Promise<MemoryServiceError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(MemoryServiceError);
    return error as MemoryServiceError;
  }
  throw new Error('expected a rejection');
}

describe('model files', () => {
  let empty: string;
  beforeEach(() => {
    empty = mkdtempSync(join(tmpdir(), 'embedder-onnx-'));
  });
  afterEach(() => rmSync(empty, { recursive: true, force: true }));

  it('defaults to <repo>/.cache/models/<model> and honours MEMORY_MODEL_DIR', () => {
    expect(resolveModelDir({})).to.equal(join(findRepoRoot(), '.cache', 'models', 'bge-small-en-v1.5-q'));
    expect(resolveModelDir({ MEMORY_MODEL_DIR: empty })).to.equal(empty);
  });

  it('names the install step when the files are missing', async () => {
    writeFileSync(join(empty, 'tokenizer.json'), '{}');
    expect(() => requireModelFiles(empty)).to.throw(MemoryServiceError, /model\.onnx/);
    const error = await rejection(createOnnxEmbedder({ modelDir: empty }));
    expect(error.code).to.equal('EMBEDDER.MODEL_MISSING');
    expect(error.message).to.contain('npm install').and.contain('install-model.mjs');
  });

  it('rejects bad options before touching the model', async () => {
    const error = await rejection(createOnnxEmbedder({ modelDir: empty, threads: 0, maxBatch: 2.5 }));
    expect(error.code).to.equal('CONFIG.INVALID');
    expect(error.message).to.contain('threads').and.contain('maxBatch');
  });

  it('pins the same artifact version as the install script, so the model tag names fetchable files', () => {
    const script = readFileSync(join(findRepoRoot(), 'deploy', 'scripts', 'install-model.mjs'), 'utf8');
    expect(script).to.contain(`const ARTIFACT_VERSION = '${BGE_SMALL_EN_V15_Q.version}';`);
  });
});
