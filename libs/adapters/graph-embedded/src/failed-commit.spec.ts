import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryServiceError } from '@memory/platform';
import type { GraphNode } from '@memory/ports';
import { failedCommitOf, freshScope, type PoisonableEnv } from '@memory/testing';
import { createEmbeddedGraphStore } from './index.js';

describe('graph-embedded after a failed commit', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'graph-failed-commit-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('fails the upsert with the retriable GRAPH.STORAGE, leaves nothing unhandled, and the next upsert lands', async () => {
    const store = createEmbeddedGraphStore({ dir });
    // The store's own environment: only a write queued there lands in the same transaction as the store's writes.
    const env = (store as unknown as { storage: { env: PoisonableEnv } }).storage.env;
    const scope = freshScope();
    const user: GraphNode = { id: 'u1', kind: 'user', tenantId: scope.tenantId, endUserId: scope.endUserId, label: 'ada' };
    try {
      const error = await failedCommitOf(env, () => store.upsert([user], []));
      expect(error).to.be.instanceOf(MemoryServiceError).and.include({ code: 'GRAPH.STORAGE', retriable: true });
      expect(await store.getNodes(scope, ['u1'])).to.deep.equal([]);
      await store.upsert([user], []);
      expect(await store.getNodes(scope, ['u1'])).to.deep.equal([user]);
    } finally {
      await store.close();
    }
  });
});
