import { join } from 'node:path';
import { expect } from 'chai';
import { requestFingerprint } from '@memory/http-api';
import { createEmbeddedIdempotencyStore } from '@memory/jobs-embedded';
import { caller, KEYS, memorydProcess, waitForJob } from './harness.js';

/**
 * An edge that died between accepting a job and storing its answer leaves a claim that no one completes. The
 * claim is made here, as that edge made it, in the service's own store (LMDB: a second process may open it), with
 * its lease already over; the client's retry must accept that same job, whose memory id the pipeline derives from
 * it, and not a second one.
 */
describe('Idempotency-Key after the edge died mid-request (embedded default)', () => {
  const memoryd = memorydProcess();
  before(() => memoryd.start());
  after(async () => {
    await memoryd.stop();
    memoryd.cleanup();
  });

  it('accepts the retry under the job the dead holder named, so the memory is written once', async () => {
    const body = { source: { type: 'text', content: 'The heron returned to the north pond at dusk.' } };
    const deadJobId = `job_${Date.now() - 120_000}_ada`;
    const store = createEmbeddedIdempotencyStore({ dir: join(memoryd.dataDir, 'idempotency') });
    try {
      const claim = await store.claim({ tenantId: 'acme', endUserId: 'ada' }, 'retry-after-crash', {
        fingerprint: requestFingerprint('POST /v1/memory', { timeZone: null, body: JSON.stringify(body) }),
        now: Date.now() - 120_000,
        leaseMs: 60_000,
        ttlMs: 24 * 3_600_000,
        jobId: deadJobId,
      });
      expect(claim.state).to.equal('claimed');
    } finally {
      await store.close();
    }

    const api = caller(memoryd, KEYS.acme, 'ada');
    const retry = await api.post('/v1/memory', body, { 'idempotency-key': 'retry-after-crash' });
    expect(retry.status, JSON.stringify(retry.body)).to.equal(202);
    expect(retry.body.jobId).to.equal(deadJobId);
    expect((await waitForJob(api, deadJobId)).status).to.equal('Completed');
    const listed = await api.get('/v1/memories');
    expect(listed.body.data.map((memory: { id: string }) => memory.id)).to.deep.equal([`mem_${deadJobId}_0`]);

    // Answered now: a further retry is a replay of that answer.
    const again = await api.post('/v1/memory', body, { 'idempotency-key': 'retry-after-crash' });
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body.jobId).to.equal(deadJobId);
  });
});
