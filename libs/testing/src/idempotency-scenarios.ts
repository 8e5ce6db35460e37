import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { caller, waitForDrain, waitForJob } from './http-caller.js';
import type { ServiceUnderTest } from './memory-api-scenarios.js';
import { TEST_KEYS as KEYS } from './service-process.js';
import { writePdf } from './test-documents.js';
import { drawReceipt } from './test-images.js';
import { uniqueName } from './wait-for.js';

/** A service the scenarios can also restart on the same data (engines, data dir or namespace). */
export interface RestartableService extends ServiceUnderTest {
  restart(): Promise<void>;
}

interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

interface Sent {
  apiKey?: string;
  endUserId: string;
  key?: string;
  headers?: Record<string, string>;
}

async function answer(res: Response): Promise<Answer> {
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

function headersOf(sent: Sent, extra: Record<string, string> = {}): Record<string, string> {
  return {
    authorization: `Bearer ${sent.apiKey ?? KEYS.acme}`,
    'x-end-user-id': sent.endUserId,
    ...(sent.key === undefined ? {} : { 'idempotency-key': sent.key }),
    ...sent.headers,
    ...extra,
  };
}

const postJson = async (service: ServiceUnderTest, path: string, body: unknown, sent: Sent) =>
  answer(await fetch(service.url + path, { method: 'POST', headers: headersOf(sent, { 'content-type': 'application/json' }), body: JSON.stringify(body) }));

const uploadPdf = async (service: ServiceUnderTest, bytes: Buffer, fileName: string, sent: Sent) => {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'application/pdf' }), fileName);
  return answer(await fetch(`${service.url}/v1/ingest/document/upload`, { method: 'POST', headers: headersOf(sent), body: form }));
};

const text = (content: string) => ({ source: { type: 'text', content } });

/** How many memories an end user has: a search of someone who has at most a few returns them all. */
async function memoriesOf(service: ServiceUnderTest, endUserId: string): Promise<string[]> {
  const found = await caller(service, KEYS.acme, endUserId).post('/v1/search', { query: 'what do I remember?', strategy: 'centroid_aware', options: { limit: 100 } });
  expect(found.status, JSON.stringify(found.body)).to.equal(200);
  return found.body.data.map((memory: { id: string }) => memory.id);
}

function expectAccepted(res: Answer, replayed: boolean): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(202);
  expect(res.headers.get('idempotent-replayed'), 'Idempotent-Replayed').to.equal(replayed ? 'true' : null);
}

function expectError(res: Answer, status: number, code: string): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.body.error.code).to.equal(code);
}

/**
 * Idempotency-Key over HTTP, for every way of running the service: a retry gets the first answer and creates
 * nothing, a reused key is refused, a duplicate racing the first is told to retry, keys are per end user, they
 * survive a restart, on text, image and PDF ingestion. The service must be started with
 * MEMORY_MAX_DOCUMENT_BYTES=TEST_DOCUMENT_MAX_BYTES.
 */
export function describeIdempotencyScenarios(title: string, service: RestartableService): void {
  describe(title, function () {
    this.timeout(240_000);
    const user = () => uniqueName('idem');
    const key = () => uniqueName('key');

    before(() => service.start());
    after(() => service.stop());

    it('answers a retry with the first answer and the same jobId, marked replayed, and makes one memory (fast path and Express alike)', async () => {
      const endUserId = user();
      const sent = { endUserId, key: key() };
      const body = text('I renewed my passport at the town hall on Tuesday, reference PSP-40213');
      const first = await postJson(service, '/v1/memory', body, sent);
      expectAccepted(first, false);
      const retry = await postJson(service, '/v1/memory', body, sent);
      expectAccepted(retry, true);
      expect(retry.body).to.deep.equal(first.body);
      // A gzip body is answered by the Express route, not the fast path: the same key and request, the same answer.
      const gzipped = await answer(
        await fetch(`${service.url}/v1/memory`, { method: 'POST', headers: headersOf(sent, { 'content-type': 'application/json', 'content-encoding': 'gzip' }), body: gzipSync(JSON.stringify(body)) }),
      );
      expectAccepted(gzipped, true);
      expect(gzipped.body).to.deep.equal(first.body);

      const job = await waitForJob(caller(service, KEYS.acme, endUserId), first.body.jobId);
      expect(job.status).to.equal('Completed');
      await waitForDrain(service);
      expect(await memoriesOf(service, endUserId)).to.deep.equal(job.memoryIds);
    });

    it('makes one job of 12 concurrent duplicates: the others wait (409 with Retry-After) or get the first answer', async () => {
      const endUserId = user();
      const sent = { endUserId, key: key() };
      const body = text('The plumber fixed the kitchen tap, invoice PLB-77120');
      const answers = await Promise.all(Array.from({ length: 12 }, () => postJson(service, '/v1/memory', body, sent)));
      const accepted = answers.filter((res) => res.status === 202);
      expect(accepted.length, JSON.stringify(answers.map((res) => res.body))).to.be.at.least(1);
      expect(new Set(accepted.map((res) => res.body.jobId)).size).to.equal(1);
      expect(accepted.filter((res) => res.headers.get('idempotent-replayed') === null)).to.have.length(1);
      for (const res of answers.filter((a) => a.status !== 202)) {
        expectError(res, 409, 'IDEMPOTENCY.IN_PROGRESS');
        expect(Number(res.headers.get('retry-after'))).to.be.at.least(1);
      }
      const later = await postJson(service, '/v1/memory', body, sent);
      expectAccepted(later, true);
      expect(later.body.jobId).to.equal(accepted[0]!.body.jobId);

      await waitForJob(caller(service, KEYS.acme, endUserId), later.body.jobId);
      await waitForDrain(service);
      expect(await memoriesOf(service, endUserId)).to.have.length(1);
    });

    it('refuses the key with another request (422), another time zone included, and still replays the first', async () => {
      const endUserId = user();
      const sent = { endUserId, key: key() };
      const first = await postJson(service, '/v1/memory', text('Dentist appointment tomorrow at 9'), sent);
      expectAccepted(first, false);
      expectError(await postJson(service, '/v1/memory', text('Dentist appointment tomorrow at 10'), sent), 422, 'IDEMPOTENCY.KEY_REUSED');
      expectError(await postJson(service, '/v1/memory', text('Dentist appointment tomorrow at 9'), { ...sent, headers: { 'x-end-user-timezone': 'Europe/Berlin' } }), 422, 'IDEMPOTENCY.KEY_REUSED');
      const image = await postJson(service, '/v1/memory/image', { imageData: (await drawReceipt()).toString('base64') }, sent);
      expectError(image, 422, 'IDEMPOTENCY.KEY_REUSED');
      const retry = await postJson(service, '/v1/memory', text('Dentist appointment tomorrow at 9'), sent);
      expectAccepted(retry, true);
      expect(retry.body.jobId).to.equal(first.body.jobId);
    });

    it('keeps keys per end user and tenant: the same key elsewhere is a new key', async () => {
      const shared = key();
      const body = text('Bought a second-hand bicycle from the market');
      const alice = await postJson(service, '/v1/memory', body, { endUserId: user(), key: shared });
      const bob = await postJson(service, '/v1/memory', body, { endUserId: user(), key: shared });
      const otherTenant = await postJson(service, '/v1/memory', body, { apiKey: KEYS.globex, endUserId: user(), key: shared });
      for (const res of [alice, bob, otherTenant]) expectAccepted(res, false);
      expect(new Set([alice, bob, otherTenant].map((res) => res.body.jobId)).size).to.equal(3);
    });

    it('refuses a malformed key (400) and accepts nothing', async () => {
      const endUserId = user();
      expectError(await postJson(service, '/v1/memory', text('a note'), { endUserId, key: 'k'.repeat(256) }), 400, 'IDEMPOTENCY.INVALID_KEY');
      expectError(await postJson(service, '/v1/memory', text('a note'), { endUserId, key: '' }), 400, 'IDEMPOTENCY.INVALID_KEY');
      expectError(await postJson(service, '/v1/memory/image', { imageData: (await drawReceipt()).toString('base64') }, { endUserId, key: '' }), 400, 'IDEMPOTENCY.INVALID_KEY');
      expectError(await uploadPdf(service, await writePdf(['A page.']), 'a.pdf', { endUserId, key: '' }), 400, 'IDEMPOTENCY.INVALID_KEY');
      await waitForDrain(service);
      expect(await memoriesOf(service, endUserId)).to.deep.equal([]);
    });

    it('frees the key of a request that was refused while being accepted, so the corrected retry is accepted', async () => {
      const sent = { endUserId: user(), key: key() };
      const corrupt = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(64, 7)]);
      const refused = await postJson(service, '/v1/memory/image', { imageData: corrupt.toString('base64') }, sent);
      expect(refused.status, JSON.stringify(refused.body)).to.be.oneOf([400, 415]);
      const accepted = await postJson(service, '/v1/memory/image', { imageData: corrupt.toString('base64') }, sent);
      expect(accepted.status, 'the same refused request is refused again, not replayed').to.equal(refused.status);
      expectAccepted(await postJson(service, '/v1/memory/image', { imageData: (await drawReceipt()).toString('base64') }, sent), false);
    });

    it('replays an image ingestion without storing its bytes again', async () => {
      const sent = { endUserId: user(), key: key() };
      const body = { imageData: (await drawReceipt()).toString('base64'), userContext: 'receipt from the garden centre' };
      const first = await postJson(service, '/v1/memory/image', body, sent);
      expectAccepted(first, false);
      const blobs = await service.storedBlobs?.();
      const retry = await postJson(service, '/v1/memory/image', body, sent);
      expectAccepted(retry, true);
      expect(retry.body).to.deep.equal(first.body);
      if (blobs !== undefined) expect(await service.storedBlobs!()).to.equal(blobs);
      expectError(await postJson(service, '/v1/memory/image', { ...body, userContext: 'another context' }, sent), 422, 'IDEMPOTENCY.KEY_REUSED');
    });

    it('replays a PDF upload and removes the bytes the retry streamed; another file with the key is refused and leaves nothing', async () => {
      const sent = { endUserId: user(), key: key() };
      const pdf = await writePdf(['Page 1. The boiler was serviced by Hearth & Co on 3 March.', 'Page 2. Next service due in March.']);
      const first = await uploadPdf(service, pdf, 'boiler.pdf', sent);
      expectAccepted(first, false);
      expect(first.body.storagePath).to.be.a('string');
      const blobs = await service.storedBlobs?.();
      const retry = await uploadPdf(service, pdf, 'boiler.pdf', sent);
      expectAccepted(retry, true);
      expect(retry.body).to.deep.equal(first.body);
      expectError(await uploadPdf(service, pdf, 'boiler-copy.pdf', sent), 422, 'IDEMPOTENCY.KEY_REUSED');
      expectError(await uploadPdf(service, await writePdf(['Another document.']), 'boiler.pdf', sent), 422, 'IDEMPOTENCY.KEY_REUSED');
      if (blobs !== undefined) expect(await service.storedBlobs!()).to.equal(blobs);
      const job = await waitForJob(caller(service, KEYS.acme, sent.endUserId), first.body.jobId, 120_000);
      expect(job.status, JSON.stringify(job)).to.equal('Completed');
      expect(job.memoryIds).to.have.length(2);
    });

    it('remembers keys across a restart of the service', async () => {
      const endUserId = user();
      const sent = { endUserId, key: key() };
      const body = text('Lent my ladder to the neighbour, Mrs Okafor');
      const first = await postJson(service, '/v1/memory', body, sent);
      expectAccepted(first, false);
      await service.restart();
      const retry = await postJson(service, '/v1/memory', body, sent);
      expectAccepted(retry, true);
      expect(retry.body).to.deep.equal(first.body);
      expectError(await postJson(service, '/v1/memory', text('Lent my ladder to someone else'), sent), 422, 'IDEMPOTENCY.KEY_REUSED');
      await waitForJob(caller(service, KEYS.acme, endUserId), first.body.jobId);
      await waitForDrain(service);
      expect(await memoriesOf(service, endUserId)).to.have.length(1);
    });
  });
}
