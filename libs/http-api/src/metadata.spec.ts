import { expect } from 'chai';
import { requestErrorOf } from '@memory/testing';
import { validateMetadata, validateMetadataField } from './metadata.js';
import { validateImageIngest, validateTextIngest } from './validation.js';

const codeOf = requestErrorOf;

describe('metadata validation', () => {
  it('keeps a flat object of strings, finite numbers and booleans; absent, null and {} are no metadata', () => {
    const metadata = { project: 'apollo', 'priority_2': 2, ratio: -0.5, pinned: false, 'a-b': '' };
    expect(validateMetadata(metadata)).to.deep.equal(metadata);
    expect(validateMetadata(undefined)).to.equal(null);
    expect(validateMetadata(null)).to.equal(null);
    expect(validateMetadata({})).to.equal(null);
  });

  it('refuses other shapes, keys and value types with METADATA.INVALID', () => {
    for (const raw of ['text', 3, true, [], [{ a: 1 }]]) expect(codeOf(() => validateMetadata(raw)), JSON.stringify(raw)).to.equal('400 METADATA.INVALID');
    for (const key of ['', 'a.b', 'with space', 'ключ', 'x'.repeat(65), '__proto__']) {
      expect(codeOf(() => validateMetadata(JSON.parse(`{${JSON.stringify(key)}:1}`))), key).to.equal('400 METADATA.INVALID');
    }
    expect(validateMetadata({ ['x'.repeat(64)]: 1 })).to.deep.equal({ ['x'.repeat(64)]: 1 });
    for (const value of [null, { nested: 1 }, [1], Number.NaN, Infinity]) {
      expect(codeOf(() => validateMetadata({ key: value })), String(value)).to.equal('400 METADATA.INVALID');
    }
  });

  it('refuses more than 32 keys, a string over 512 characters and more than 4 KiB of JSON with METADATA.TOO_LARGE', () => {
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    expect(validateMetadata(keys(32))).to.have.keys(Object.keys(keys(32)));
    expect(codeOf(() => validateMetadata(keys(33)))).to.equal('400 METADATA.TOO_LARGE');
    expect(validateMetadata({ note: 'x'.repeat(512) })).to.deep.equal({ note: 'x'.repeat(512) });
    expect(codeOf(() => validateMetadata({ note: 'x'.repeat(513) }))).to.equal('400 METADATA.TOO_LARGE');
    const big = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`note${i}`, 'x'.repeat(500)]));
    expect(codeOf(() => validateMetadata(big))).to.equal('400 METADATA.TOO_LARGE');
  });

  it('reads the multipart metadata part as JSON text', () => {
    expect(validateMetadataField(null)).to.equal(null);
    expect(validateMetadataField('{"project":"apollo","page":3}')).to.deep.equal({ project: 'apollo', page: 3 });
    expect(codeOf(() => validateMetadataField('{project:apollo}'))).to.equal('400 METADATA.INVALID');
    expect(codeOf(() => validateMetadataField('null'))).to.equal('400 METADATA.INVALID');
    expect(codeOf(() => validateMetadataField('[1]'))).to.equal('400 METADATA.INVALID');
  });

  it('is part of text and image ingestion, one validation for both routes of text', () => {
    expect(validateTextIngest({ source: { type: 'text', content: 'hi' }, metadata: { project: 'apollo' } }).metadata).to.deep.equal({ project: 'apollo' });
    expect(validateTextIngest({ source: { type: 'text', content: 'hi' } }).metadata).to.equal(null);
    expect(codeOf(() => validateTextIngest({ source: { type: 'text', content: 'hi' }, metadata: { a: { b: 1 } } }))).to.equal('400 METADATA.INVALID');
    expect(validateImageIngest({ imageData: 'aGk=', metadata: { album: 'summer' } }).metadata).to.deep.equal({ album: 'summer' });
    expect(codeOf(() => validateImageIngest({ imageData: 'aGk=', metadata: 'summer' }))).to.equal('400 METADATA.INVALID');
  });
});
