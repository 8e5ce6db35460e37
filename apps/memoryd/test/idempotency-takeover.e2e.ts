import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { openFsBlobStore } from '@memory/blobs-fs';
import { blobKeyOf } from '@memory/contracts';
import { requestFingerprint } from '@memory/http-api';
import { createEmbeddedIdempotencyStore } from '@memory/jobs-embedded';
import { sampleSum } from '@memory/metrics';
import { MANUAL_PAGES, uploadDocument, writePdf } from '@memory/testing';
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
  /** Claims a key as the dead edge did: in the service's own store, with a lease that ended a minute ago. */
  const claimAsTheDeadEdge = async (endUserId: string, key: string, fingerprint: string, jobId: string) => {
    const store = createEmbeddedIdempotencyStore({ dir: join(memoryd.dataDir, 'idempotency') });
    try {
      const claim = await store.claim({ tenantId: 'acme', endUserId }, key, { fingerprint, now: Date.now() - 120_000, leaseMs: 60_000, ttlMs: 24 * 3_600_000, jobId });
      expect(claim.state).to.equal('claimed');
    } finally {
      await store.close();
    }
  };
  after(async () => {
    await memoryd.stop();
    memoryd.cleanup();
  });

  it('accepts the retry under the job the dead holder named, so the memory is written once', async () => {
    const body = { source: { type: 'text', content: 'The heron returned to the north pond at dusk.' } };
    const deadJobId = `job_${Date.now() - 120_000}_ada`;
    await claimAsTheDeadEdge('ada', 'retry-after-crash', requestFingerprint('POST /v1/memory', { timeZone: null, body: JSON.stringify(body) }), deadJobId);

    const api = caller(memoryd, KEYS.acme, 'ada');
    const retry = await api.post('/v1/memory', body, { 'idempotency-key': 'retry-after-crash' });
    expect(retry.status, JSON.stringify(retry.body)).to.equal(202);
    expect(retry.body.jobId).to.equal(deadJobId);
    const metrics = await (await fetch(`${memoryd.url}/metrics`)).text();
    expect(sampleSum([metrics], 'memory_idempotency_takeovers_total'), 'the takeover is counted').to.equal(1);
    expect((await waitForJob(api, deadJobId)).status).to.equal('Completed');
    const listed = await api.get('/v1/memories');
    expect(listed.body.data.map((memory: { id: string }) => memory.id)).to.deep.equal([`mem_${deadJobId}_0`]);

    // Answered now: a further retry is a replay of that answer.
    const again = await api.post('/v1/memory', body, { 'idempotency-key': 'retry-after-crash' });
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body.jobId).to.equal(deadJobId);
  });

  it('accepts a retried PATCH under the update job the dead holder named, so the correction is one version', async () => {
    const api = caller(memoryd, KEYS.acme, 'cy');
    const ingested = await api.post('/v1/memory', { source: { type: 'text', content: 'I parked the van on level 3 of the station garage.' } });
    expect(ingested.status, JSON.stringify(ingested.body)).to.equal(202);
    const [memoryId] = (await waitForJob(api, ingested.body.jobId)).memoryIds as string[];
    const change = { content: 'I parked the van on level 4 of the station garage.' };
    const deadJobId = `upd_job_${Date.now() - 120_000}_cy`;
    await claimAsTheDeadEdge('cy', 'patch-after-crash', requestFingerprint('PATCH /v1/memories/{id}', { memoryId: memoryId!, timeZone: null, body: JSON.stringify(change) }), deadJobId);

    const retry = await api.patch(`/v1/memories/${memoryId}`, change, { 'idempotency-key': 'patch-after-crash' });
    expect(retry.status, JSON.stringify(retry.body)).to.equal(202);
    expect(retry.body.jobId, 'the update job the dead holder may have appended, not a second one').to.equal(deadJobId);
    const job = await waitForJob(api, deadJobId);
    expect([job.status, job.memoryIds]).to.deep.equal(['Completed', [memoryId]]);
    const history = await api.get(`/v1/memories/${memoryId}/history`);
    expect(history.body.data.map((v: { version: number; cause: string }) => [v.version, v.cause])).to.deep.equal([[1, 'ingest'], [2, 'update']]);

    const again = await api.patch(`/v1/memories/${memoryId}`, change, { 'idempotency-key': 'patch-after-crash' });
    expect([again.status, again.headers.get('idempotent-replayed'), again.body.jobId]).to.deep.equal([202, 'true', deadJobId]);
  });

  it('accepts a retried PDF under the dead holder\'s job and file, and keeps one copy of the file', async () => {
    const pdf = await writePdf(MANUAL_PAGES.slice(0, 1));
    const deadJobId = `doc_job_${Date.now() - 120_000}_bo`;
    // The dead edge had stored the file under its job (the claim comes after, once the file's hash is known).
    const blobsDir = join(memoryd.dataDir, 'blobs');
    const blobs = await openFsBlobStore({ dir: blobsDir });
    const earlierKey = blobKeyOf('acme', 'bo', deadJobId, 'manual.pdf');
    try {
      await blobs.put(earlierKey, pdf, 'application/pdf');
    } finally {
      await blobs.close();
    }
    const sha256 = createHash('sha256').update(pdf).digest('hex');
    await claimAsTheDeadEdge('bo', 'pdf-after-crash', requestFingerprint('POST /v1/ingest/document/upload', { timeZone: null, fileName: 'manual.pdf', sha256, metadata: JSON.stringify(null) }), deadJobId);

    const retry = await uploadDocument(memoryd, 'bo', pdf, 'manual.pdf', 'application/pdf', KEYS.acme, { 'idempotency-key': 'pdf-after-crash' });
    expect(retry.status, JSON.stringify(retry.body)).to.equal(202);
    expect(retry.body).to.deep.include({ jobId: deadJobId, storagePath: earlierKey });
    const api = caller(memoryd, KEYS.acme, 'bo');
    expect((await waitForJob(api, deadJobId)).status).to.equal('Completed');
    const ids = (await api.get('/v1/memories')).body.data.map((memory: { id: string }) => memory.id);
    expect(ids.length).to.be.greaterThan(0);
    for (const id of ids) expect(id.startsWith(`mem_${deadJobId}_`), id).to.equal(true);
    // The retry's own copy of the bytes is gone: the tenant's blobs are the one file of the one job.
    const files = readdirSync(join(blobsDir, 'blobs', 'acme'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    expect(files.length).to.equal(1);
  });
});
