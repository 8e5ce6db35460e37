import { expect } from 'chai';
import { requestFingerprint, validateIdempotencyKey } from './idempotency.js';

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
});
