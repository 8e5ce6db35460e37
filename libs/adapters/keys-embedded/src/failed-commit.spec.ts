import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newDataKey } from '@memory/contracts';
import { MemoryServiceError } from '@memory/platform';
import { failedCommitOf, type PoisonableEnv } from '@memory/testing';
import { openEmbeddedKeyStore } from './index.js';

describe('keys-embedded after a failed commit', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'keys-failed-commit-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('fails the write with the retriable KEYS.STORAGE, leaves nothing unhandled, and the next write lands', async () => {
    const store = await openEmbeddedKeyStore({ dir });
    // The store's own environment: only a write queued there lands in the same transaction as the store's writes.
    const env = (store as unknown as { env: PoisonableEnv }).env;
    const scope = { tenantId: 'acme', endUserId: 'ada' };
    const key = newDataKey();
    try {
      const error = await failedCommitOf(env, () => store.create([{ scope, keyId: 'job_1_ada', key: newDataKey() }]));
      expect(error).to.be.instanceOf(MemoryServiceError).and.include({ code: 'KEYS.STORAGE', retriable: true });
      expect((await store.get(scope, ['job_1_ada'])).size).to.equal(0);
      expect(await store.create([{ scope, keyId: 'job_1_ada', key }])).to.deep.equal([key]);
      expect((await store.get(scope, ['job_1_ada'])).get('job_1_ada')).to.deep.equal(key);
    } finally {
      await store.close();
    }
  });
});
