import { expect } from 'chai';
import type { IdempotencyStore } from '@memory/ports';
import { createLogger, MemoryServiceError, RequestError } from '@memory/platform';
import { createIdempotency, requestFingerprint, validateIdempotencyKey } from './idempotency.js';

describe('Idempotency-Key', () => {
  it('accepts 1-255 printable ASCII characters and nothing else', () => {
    expect(validateIdempotencyKey(undefined)).to.equal(undefined);
    expect(validateIdempotencyKey('a')).to.equal('a');
    expect(validateIdempotencyKey('~ !'.repeat(85))).to.have.length(255);
    for (const bad of ['', 'x'.repeat(256), 'tab\there', 'é', 'new\nline']) {
      expect(() => validateIdempotencyKey(bad), JSON.stringify(bad)).to.throw().with.property('code', 'IDEMPOTENCY.INVALID_KEY');
    }
  });

  it('fingerprints route and named parts, so moving bytes between parts or routes changes it', () => {
    const base = requestFingerprint('POST /v1/memory', { timeZone: null, body: '{"a":1}' });
    expect(requestFingerprint('POST /v1/memory', { timeZone: null, body: '{"a":1}' })).to.equal(base);
    expect(requestFingerprint('POST /v1/memory/image', { timeZone: null, body: '{"a":1}' })).to.not.equal(base);
    expect(requestFingerprint('POST /v1/memory', { timeZone: 'Europe/Berlin', body: '{"a":1}' })).to.not.equal(base);
    expect(requestFingerprint('POST /v1/memory', { timeZone: '', body: '{"a":1}' })).to.not.equal(base);
    expect(requestFingerprint('POST', { x: 'ab', y: 'c' })).to.not.equal(requestFingerprint('POST', { x: 'a', y: 'bc' }));
  });

  it('undoes what the route stored when a request without a key is not accepted (a PDF whose client left)', async () => {
    // Without a key the store is never asked: an object with no methods shows it.
    const idempotency = createIdempotency({ store: {} as IdempotencyStore, ttlMs: 86_400_000, logger: createLogger({}, 'silent') });
    const discarded: string[] = [];
    const refusal = new RequestError(400, 'REQUEST.ABORTED', 'the client left');
    const outcome = await idempotency
      .run({ scope: { tenantId: 'acme', endUserId: 'ada' }, key: undefined, fingerprint: () => 'fp', accept: () => Promise.reject(refusal), discard: async () => void discarded.push('the stored file') })
      .catch((error: unknown) => error);
    expect(outcome).to.equal(refusal);
    expect(discarded).to.deep.equal(['the stored file']);
  });

  it('hands the job id to the retry when the accept failed in an engine (it may have been accepted), frees the key on a 4xx', async () => {
    // The store's own behaviour is the IdempotencyStore contract's; here only which call the flow makes.
    const calls: string[] = [];
    const store = {
      claim: async () => ({ state: 'claimed', claim: { token: 't' }, earlierJobId: null }),
      abandon: async () => void calls.push('abandon'),
      release: async () => void calls.push('release'),
      removeExpired: async () => 0,
    } as unknown as IdempotencyStore;
    const idempotency = createIdempotency({ store, ttlMs: 86_400_000, logger: createLogger({}, 'silent') });
    const attempt = (failure: Error) =>
      idempotency
        .run({ scope: { tenantId: 'acme', endUserId: 'ada' }, key: 'k', fingerprint: () => 'fp', newJobId: () => 'job_1_ada', accept: () => Promise.reject(failure), discard: async () => void calls.push('discard') })
        .catch((error: unknown) => error);

    const lostAnswer = new MemoryServiceError('EVENTLOG.UNAVAILABLE', 'the broker went away before acknowledging', { retriable: true });
    expect(await attempt(lostAnswer)).to.equal(lostAnswer);
    expect(calls, 'kept for the retry, with what the job may refer to').to.deep.equal(['abandon']);

    calls.length = 0;
    const refusal = new RequestError(409, 'REQUEST.END_USER_ERASED', 'erased meanwhile');
    expect(await attempt(refusal)).to.equal(refusal);
    expect(calls).to.deep.equal(['release', 'discard']);
  });
});
