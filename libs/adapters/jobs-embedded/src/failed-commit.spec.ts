import { expect } from 'chai';
import { open } from 'lmdb';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryServiceError } from '@memory/platform';
import type { JobRecord, WebhookEndpoint } from '@memory/ports';
import { failedCommitOf, type PoisonableEnv } from '@memory/testing';
import { createEmbeddedIdempotencyStore, createEmbeddedJobStore, createEmbeddedWebhookStore } from './index.js';

/** A store's own environment: only a write queued there lands in the same transaction as the store's writes. */
const envOf = (store: object): PoisonableEnv => (store as { env: PoisonableEnv }).env;

const job = (state: JobRecord['state']): JobRecord => ({
  jobId: 'j', tenantId: 't', endUserId: 'u', state, stage: null, partCount: null, memoryIds: [], errorCode: null, reason: null, acceptedAt: 1, updatedAt: 1,
});

const endpoint = (id: string): WebhookEndpoint => ({
  id, tenantId: 't', url: `https://example.com/${id}`, events: ['job.completed'], secrets: [{ secret: `whsec_${id}`, expiresAt: null }], createdAt: 1,
});

describe('jobs-embedded after a failed commit', function () {
  this.timeout(30_000);
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'jobs-failed-commit-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('job store: the update fails with the retriable JOBS.STORAGE, nothing is left unhandled, and the next update lands', async () => {
    // The job store's two databases fill its maxDbs, and the poison needs one more: the folder is opened first with
    // room for it, and the store's open shares that LMDB environment (lmdb-js opens a folder once per process).
    const room = open({ path: dir, maxDbs: 4 });
    const store = createEmbeddedJobStore({ dir });
    try {
      const error = await failedCommitOf(envOf(store), () => store.update('t', 'j', () => job('Accepted')));
      expect(error).to.be.instanceOf(MemoryServiceError).and.include({ code: 'JOBS.STORAGE', retriable: true });
      expect(await store.get('t', 'j')).to.equal(null);
      await store.update('t', 'j', () => job('Completed'));
      expect(await store.get('t', 'j')).to.include({ state: 'Completed' });
      expect(await store.countByState()).to.deep.equal({ Completed: 1 });
    } finally {
      await store.close();
      await room.close();
    }
  });

  it('idempotency store: the claim fails with the retriable IDEMPOTENCY.STORAGE, nothing is left unhandled, and the next claim lands', async () => {
    const store = createEmbeddedIdempotencyStore({ dir });
    const scope = { tenantId: 't', endUserId: 'u' };
    const claim = () => store.claim(scope, 'key', { fingerprint: 'f', now: Date.now(), leaseMs: 60_000, ttlMs: 3_600_000 });
    try {
      const error = await failedCommitOf(envOf(store), claim);
      expect(error).to.be.instanceOf(MemoryServiceError).and.include({ code: 'IDEMPOTENCY.STORAGE', retriable: true });
      expect(await claim()).to.include({ state: 'claimed' });
      expect(await claim()).to.include({ state: 'in-progress' });
    } finally {
      await store.close();
    }
  });

  it('webhook store: the write fails with the retriable WEBHOOK.STORAGE, nothing is left unhandled, and the next write lands', async () => {
    const store = createEmbeddedWebhookStore({ dir });
    try {
      const error = await failedCommitOf(envOf(store), () => store.createEndpoint(endpoint('w1')));
      expect(error).to.be.instanceOf(MemoryServiceError).and.include({ code: 'WEBHOOK.STORAGE', retriable: true });
      expect(await store.getEndpoint('t', 'w1')).to.equal(null);
      await store.createEndpoint(endpoint('w1'));
      expect(await store.getEndpoint('t', 'w1')).to.include({ id: 'w1' });
    } finally {
      await store.close();
    }
  });
});
