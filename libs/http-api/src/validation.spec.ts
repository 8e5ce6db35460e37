import { expect } from 'chai';
import { requestErrorOf } from '@memory/testing';
import { decodeImageData, validateEndUserId, validateTextIngest, validateTimeZone } from './validation.js';
import { authenticate, createApiKeyRegistry, parseApiKeys } from './auth.js';

const codeOf = requestErrorOf;

describe('request validation', () => {
  it('accepts a text memory with optional timestamp and userContext', () => {
    expect(validateTextIngest({ source: { type: 'text', content: 'hi' } })).to.deep.equal({ content: 'hi', sourceTimestamp: null, userContext: null, metadata: null });
    const v = validateTextIngest({ source: { type: 'text', content: 'hi', timestamp: '2023-05-08T13:56:00Z' }, userContext: 'diary' });
    expect(v.sourceTimestamp).to.equal(Date.parse('2023-05-08T13:56:00Z'));
    expect(v.userContext).to.equal('diary');
    expect(validateTextIngest({ source: { type: 'text', content: 'x', timestamp: '2023-05-08' } }).sourceTimestamp).to.equal(Date.parse('2023-05-08'));
  });

  it('rejects bad text memories with stable codes', () => {
    expect(codeOf(() => validateTextIngest(null))).to.equal('400 REQUEST.INVALID_BODY');
    expect(codeOf(() => validateTextIngest({}))).to.equal('400 REQUEST.INVALID_BODY');
    expect(codeOf(() => validateTextIngest({ source: { type: 'pdf', content: 'x' } }))).to.equal('400 INGEST.INVALID_SOURCE_TYPE');
    expect(codeOf(() => validateTextIngest({ source: { type: 'text', content: '   ' } }))).to.equal('400 INGEST.MISSING_CONTENT');
    expect(codeOf(() => validateTextIngest({ source: { type: 'text', content: 'x'.repeat(32_001) } }))).to.equal('413 INGEST.TOO_LARGE');
    expect(codeOf(() => validateTextIngest({ source: { type: 'text', content: 'x', timestamp: 'yesterday' } }))).to.equal('400 INGEST.INVALID_TIMESTAMP');
    expect(codeOf(() => validateTextIngest({ source: { type: 'text', content: 'x', timestamp: '2023-13-45' } }))).to.equal('400 INGEST.INVALID_TIMESTAMP');
    expect(codeOf(() => validateTextIngest({ source: { type: 'text', content: 'x' }, userContext: 5 }))).to.equal('400 REQUEST.INVALID_FIELD');
  });

  it('validates end user ids and time zones', () => {
    expect(validateEndUserId('alice_01@example.com')).to.equal('alice_01@example.com');
    expect(codeOf(() => validateEndUserId(undefined))).to.equal('400 REQUEST.MISSING_END_USER');
    expect(codeOf(() => validateEndUserId('a b'))).to.equal('400 REQUEST.INVALID_END_USER');
    expect(codeOf(() => validateEndUserId('x'.repeat(129)))).to.equal('400 REQUEST.INVALID_END_USER');
    expect(validateTimeZone('America/New_York')).to.equal('America/New_York');
    expect(validateTimeZone(undefined)).to.equal(null);
    expect(codeOf(() => validateTimeZone('Mars/Olympus'))).to.equal('400 REQUEST.INVALID_TIMEZONE');
  });
});

describe('API keys', () => {
  const registry = createApiKeyRegistry(parseApiKeys('key-for-acme-123456:acme, key-for-globex-12345:globex'));
  it('maps a bearer key to its tenant', () => {
    expect(authenticate(registry, 'Bearer key-for-acme-123456')).to.equal('acme');
    expect(authenticate(registry, 'bearer key-for-globex-12345')).to.equal('globex');
  });
  it('answers 401 with a code for missing, malformed and unknown keys', () => {
    expect(codeOf(() => authenticate(registry, undefined))).to.equal('401 AUTH.MISSING_KEY');
    expect(codeOf(() => authenticate(registry, 'Basic abc'))).to.equal('401 AUTH.MALFORMED');
    expect(codeOf(() => authenticate(registry, 'Bearer nope-nope-nope-nope'))).to.equal('401 AUTH.INVALID_KEY');
  });
  it('keeps only hashes of the keys', () => {
    const map = parseApiKeys('key-for-acme-123456:acme');
    expect([...map.keys()][0]).to.match(/^[0-9a-f]{64}$/);
    expect(JSON.stringify([...map])).to.not.include('key-for-acme');
  });
  it('refuses short keys and malformed pairs at start', () => {
    expect(() => parseApiKeys('short:acme')).to.throw(/at least 16/);
    expect(() => parseApiKeys('no-tenant-here-123456')).to.throw(/key:tenant/);
  });
});

describe('image data', () => {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const codeOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      return `${(error as { status: number }).status} ${(error as { code: string }).code}`;
    }
    return 'no error';
  };
  it('decodes plain base64 and data: URLs alike, ignoring line breaks', () => {
    expect(decodeImageData(png.toString('base64'), 'imageData')).to.deep.equal(png);
    expect(decodeImageData(`data:image/png;base64,${png.toString('base64')}`, 'imageData')).to.deep.equal(png);
    expect(decodeImageData(`${png.toString('base64').slice(0, 4)}\n${png.toString('base64').slice(4)}`, 'imageData')).to.deep.equal(png);
  });
  it('refuses missing, empty and non-base64 data with codes', () => {
    expect(codeOf(() => decodeImageData(undefined, 'imageData'))).to.equal('400 IMAGE.MISSING_DATA');
    expect(codeOf(() => decodeImageData('', 'imageData'))).to.equal('400 IMAGE.MISSING_DATA');
    expect(codeOf(() => decodeImageData('abc$', 'imageData'))).to.equal('400 IMAGE.INVALID_BASE64');
    expect(codeOf(() => decodeImageData('a', 'imageData'))).to.equal('400 IMAGE.INVALID_BASE64');
  });
});
