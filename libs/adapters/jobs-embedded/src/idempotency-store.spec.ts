import { expect } from 'chai';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeIdempotencyStoreContract, expectCode, tempDirStoreFactory } from '@memory/testing';
import { createEmbeddedIdempotencyStore, createEmbeddedWebhookStore } from './index.js';

describeIdempotencyStoreContract('jobs-embedded', tempDirStoreFactory('idempotency-embedded', (dir) => createEmbeddedIdempotencyStore({ dir })));

describe('jobs-embedded idempotency store', () => {
  it('gives a key to one claim only when two stores (as two processes would) are open on one directory', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'idempotency-embedded-'));
    const first = createEmbeddedIdempotencyStore({ dir });
    const second = createEmbeddedIdempotencyStore({ dir });
    try {
      const scope = { tenantId: 't', endUserId: 'u' };
      const request = { fingerprint: 'f', now: 1, leaseMs: 1_000, ttlMs: 10_000 };
      const results = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? first : second).claim(scope, 'k', request)));
      expect(results.filter((result) => result.state === 'claimed')).to.have.length(1);
    } finally {
      await first.close();
      await second.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('keeps no byte of a forgotten end user\'s records, nor of their webhook deliveries, in its file once closed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'forgotten-embedded-'));
    const scope = { tenantId: 't', endUserId: 'u' };
    const idempotency = createEmbeddedIdempotencyStore({ dir: join(dir, 'idempotency') });
    // Enough records that their pages are freed, not rewritten in place.
    for (let i = 0; i < 200; i++) await idempotency.claim(scope, `zebracrossing-${i}`, { fingerprint: `fingerprint-of-zebracrossing-${i}`, now: 1, leaseMs: 1_000, ttlMs: 10_000 });
    expect(await idempotency.forgetUser(scope)).to.equal(200);
    await idempotency.close();
    const webhooks = createEmbeddedWebhookStore({ dir: join(dir, 'webhooks') });
    for (let i = 0; i < 200; i++) {
      await webhooks.enqueue({
        id: `d${i}`, tenantId: 't', endUserId: 'u', webhookId: 'w', eventType: 'job.completed', body: `{"jobId":"job_1_zebracrossing_${i}"}`,
        state: 'pending', attempts: 0, nextAttemptAt: 1, lastStatus: null, lastError: null, retryUntil: 2, createdAt: 1, updatedAt: 1,
      });
    }
    expect(await webhooks.forgetUser(scope, 2)).to.equal(200);
    await webhooks.close();
    for (const store of ['idempotency', 'webhooks']) {
      expect((await readFile(join(dir, store, 'data.mdb'))).includes(Buffer.from('zebracrossing')), store).to.equal(false);
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps no byte of a forgotten job\'s records in its file once closed, and keeps the other records', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'forgotten-jobs-embedded-'));
    const scope = { tenantId: 't', endUserId: 'u' };
    const store = createEmbeddedIdempotencyStore({ dir });
    const jobIds = Array.from({ length: 200 }, (_, i) => `job_${i}_zebracrossing`);
    for (const [i, jobId] of jobIds.entries()) await store.claim(scope, `zebracrossing-${i}`, { fingerprint: `fingerprint-of-zebracrossing-${i}`, now: 1, leaseMs: 1_000, ttlMs: 10_000, jobId });
    await store.claim(scope, 'kept-key', { fingerprint: 'kept-fingerprint', now: 1, leaseMs: 1_000, ttlMs: 10_000, jobId: 'job_kept' });
    expect(await store.forgetJobs(scope, jobIds)).to.equal(200);
    await store.close();
    const bytes = await readFile(join(dir, 'data.mdb'));
    expect(bytes.includes(Buffer.from('kept-fingerprint')), 'the bytes read hold the records kept').to.equal(true);
    expect(bytes.includes(Buffer.from('zebracrossing'))).to.equal(false);
    await rm(dir, { recursive: true, force: true });
  });

  it('rejects empty keys and scopes and use after close with stable codes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'idempotency-embedded-'));
    const store = createEmbeddedIdempotencyStore({ dir });
    const request = { fingerprint: 'f', now: 1, leaseMs: 1_000, ttlMs: 10_000 };
    await expectCode(() => store.claim({ tenantId: 't', endUserId: 'u' }, '', request), 'IDEMPOTENCY.INVALID_ARGUMENT');
    await expectCode(() => store.forgetUser({ tenantId: '', endUserId: 'u' }), 'IDEMPOTENCY.INVALID_ARGUMENT');
    await store.close();
    await expectCode(() => store.claim({ tenantId: 't', endUserId: 'u' }, 'k', request), 'IDEMPOTENCY.CLOSED');
    await rm(dir, { recursive: true, force: true });
  });
});
