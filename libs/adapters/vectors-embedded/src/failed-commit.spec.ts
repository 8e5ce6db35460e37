import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryServiceError } from '@memory/platform';
import { failedCommitOf, freshScope, memoryRecord, type PoisonableEnv } from '@memory/testing';
import { createEmbeddedVectorStore } from './index.js';

describe('vectors-embedded after a failed commit', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vectors-failed-commit-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('fails the upsert with the retriable VECTORS.STORAGE, leaves nothing unhandled, and the next upsert lands', async () => {
    const store = createEmbeddedVectorStore({ dir });
    // The store's own environment: only a write queued there lands in the same transaction as the store's writes.
    const env = (store as unknown as { storage: { env: PoisonableEnv } }).storage.env;
    const scope = freshScope();
    try {
      const error = await failedCommitOf(env, () => store.upsert([memoryRecord(scope, 'm1', 4)]));
      expect(error).to.be.instanceOf(MemoryServiceError).and.include({ code: 'VECTORS.STORAGE', retriable: true });
      expect(await store.get(scope, ['m1'])).to.deep.equal([]);
      await store.upsert([memoryRecord(scope, 'm1', 4)]);
      expect((await store.get(scope, ['m1'])).map((memory) => memory.id)).to.deep.equal(['m1']);
    } finally {
      await store.close();
    }
  });
});
