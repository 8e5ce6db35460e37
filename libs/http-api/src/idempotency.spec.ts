import { expect } from 'chai';
import type { IdempotencyStore } from '@memory/ports';
import { createLogger, RequestError } from '@memory/platform';
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
});
