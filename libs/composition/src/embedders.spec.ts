import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { DEFAULT_ONNX_MODEL, ONNX_MODELS, modelFiles, resolveModelDir } from '@memory/embedder-onnx';
import { MemoryServiceError, createLogger } from '@memory/platform';
import { readServiceConfig } from './config.js';
import { embeddingDimensions, openEmbedder } from './embedders.js';

const logger = createLogger({ component: 'embedders-spec' }, 'silent');
const installed = (name: string) => existsSync(modelFiles(resolveModelDir(ONNX_MODELS.get(name)!, {})).onnx);

async function open(env: Record<string, string>) {
  const config = readServiceConfig(env, 'embedded');
  const embedder = await openEmbedder(config, logger);
  const dimensions = await embeddingDimensions(config, logger);
  await embedder.close();
  return { model: embedder.model, dimensions };
}

// Real models through the same path the service takes; a data dir is pinned to the first model it ran.
describe('openEmbedder: the local model and the data dir', function () {
  this.timeout(60_000);
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'embedders-spec-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('starts a new data dir on the default model and refuses another model over it', async function () {
    if (!installed(DEFAULT_ONNX_MODEL)) {
      console.log(`      skipped: ${DEFAULT_ONNX_MODEL} is not installed (npm install fetches it)`);
      this.skip();
    }
    const first = await open({ MEMORY_DATA_DIR: dataDir });
    expect(first.model.name).to.equal(DEFAULT_ONNX_MODEL);
    expect(first.dimensions).to.equal(first.model.dimensions);
    expect(JSON.parse(readFileSync(join(dataDir, 'embedding-model.json'), 'utf8')).name).to.equal(DEFAULT_ONNX_MODEL);
    try {
      await open({ MEMORY_DATA_DIR: dataDir, MEMORY_EMBEDDING_MODEL: 'e5-small-v2-q' });
      expect.fail('another model must be refused');
    } catch (error) {
      expect(error).to.be.instanceOf(MemoryServiceError);
      expect((error as MemoryServiceError).code).to.equal('EMBEDDER.MODEL_CHANGED');
    }
  });

  it('runs MEMORY_EMBEDDING_MODEL on a new data dir, and that model again when the variable is later unset', async function () {
    const other = [...ONNX_MODELS.keys()].find((name) => name !== DEFAULT_ONNX_MODEL && installed(name));
    if (!other) {
      console.log('      skipped: no model but the default is installed (MEMORY_EMBEDDING_MODEL=<name> node deploy/scripts/install-model.mjs)');
      this.skip();
    }
    const chosen = await open({ MEMORY_DATA_DIR: dataDir, MEMORY_EMBEDDING_MODEL: other! });
    expect(chosen.model.name).to.equal(other);
    const again = await open({ MEMORY_DATA_DIR: dataDir });
    expect(again.model).to.deep.equal(chosen.model);
  });
});
