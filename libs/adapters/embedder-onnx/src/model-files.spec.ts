import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { MemoryServiceError } from '@memory/platform';
import { DEFAULT_ONNX_MODEL, ONNX_MODELS, onnxModel } from './model-catalog.js';
import { findRepoRoot, requireModelFiles, resolveModelDir } from './model-files.js';
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
    expect(resolveModelDir(onnxModel(), {})).to.equal(join(findRepoRoot(), '.cache', 'models', 'bge-small-en-v1.5-q'));
    expect(resolveModelDir(onnxModel('e5-small-v2-q'), {})).to.equal(join(findRepoRoot(), '.cache', 'models', 'e5-small-v2-q'));
    expect(resolveModelDir(onnxModel(), { MEMORY_MODEL_DIR: empty })).to.equal(empty);
  });

  it('names the install step, with the model, when the files are missing', async () => {
    writeFileSync(join(empty, 'tokenizer.json'), '{}');
    expect(() => requireModelFiles(empty, onnxModel())).to.throw(MemoryServiceError, /model\.onnx/);
    const error = await rejection(createOnnxEmbedder({ model: 'e5-small-v2-q', modelDir: empty }));
    expect(error.code).to.equal('EMBEDDER.MODEL_MISSING');
    expect(error.message).to.contain('npm install').and.contain('MEMORY_EMBEDDING_MODEL=e5-small-v2-q node deploy/scripts/install-model.mjs');
  });

  it('refuses a folder that the install script filled with another model', () => {
    writeFileSync(join(empty, 'model.onnx'), 'x');
    writeFileSync(join(empty, 'tokenizer.json'), '{}');
    writeFileSync(join(empty, 'source.json'), JSON.stringify({ model: 'all-minilm-l6-v2-q' }));
    expect(() => requireModelFiles(empty, onnxModel('e5-small-v2-q')))
      .to.throw(MemoryServiceError, /holds the files of all-minilm-l6-v2-q, not of e5-small-v2-q/)
      .with.property('code', 'EMBEDDER.MODEL_INVALID');
    expect(requireModelFiles(empty, onnxModel('all-minilm-l6-v2-q')).onnx).to.equal(join(empty, 'model.onnx'));
  });

  it('rejects bad options, an unknown model among them, before touching the model', async () => {
    const error = await rejection(createOnnxEmbedder({ modelDir: empty, threads: 0, maxBatch: 2.5, model: 'gpt-embed' }));
    expect(error.code).to.equal('CONFIG.INVALID');
    expect(error.message).to.contain('threads').and.contain('maxBatch').and.contain('model must be one of bge-small-en-v1.5-q, ');
    expect(() => onnxModel('gpt-embed')).to.throw(MemoryServiceError, /unknown local embedding model "gpt-embed"/);
  });

  it('describes every model completely: artifact, digests, pooling, prefixes, length', () => {
    expect(ONNX_MODELS.has(DEFAULT_ONNX_MODEL)).to.equal(true);
    for (const spec of ONNX_MODELS.values()) {
      expect(spec.artifact, spec.name).to.match(/^[\w.-]+:[\w.-]+$/);
      expect(spec.version, spec.name).to.match(/^\d+\.\d+\.\d+/);
      expect(spec.pooling, spec.name).to.be.oneOf(['cls', 'mean']);
      expect(spec.dimensions, spec.name).to.be.within(1, 4096);
      expect(spec.maxTokens, spec.name).to.be.within(8, 512);
      expect(spec.queryPrefix, spec.name).to.be.a('string');
      expect(spec.passagePrefix, spec.name).to.be.a('string');
      expect(spec.licence, spec.name).to.be.a('string').and.not.equal('');
      for (const file of [spec.files.onnx, spec.files.tokenizer]) {
        expect(file.entry, spec.name).to.be.a('string').and.not.equal('');
        expect(file.sha256, spec.name).to.match(/^[0-9a-f]{64}$/);
      }
    }
  });

  it('shares models.json with the install script, which refuses a model it does not list', () => {
    const script = join(findRepoRoot(), 'deploy', 'scripts', 'install-model.mjs');
    expect(readFileSync(script, 'utf8')).to.contain("join(repoRoot, 'libs', 'adapters', 'embedder-onnx', 'models.json')");
    const run = spawnSync(process.execPath, [script], { encoding: 'utf8', env: { ...process.env, MEMORY_EMBEDDING_MODEL: 'gpt-embed', MEMORY_MODEL_DIR: empty } });
    expect(run.status).to.equal(1);
    expect(run.stderr).to.contain('unknown model "gpt-embed"').and.contain([...ONNX_MODELS.keys()].join(', '));
  });
});
