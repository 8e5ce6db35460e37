import { expect } from 'chai';
import { MemoryServiceError } from '@memory/platform';
import { chunkPage, DEFAULT_CHUNK_CHARS } from './chunk-page.js';
import { sentences } from './test/pdf-fixtures.js';

/** Where `chunk` sits in `page`, checking that it is an exact slice. */
function offsetOf(page: string, chunk: string, from: number): number {
  const at = page.indexOf(chunk, from);
  expect(at, `chunk is not a slice of the page: ${chunk.slice(0, 40)}`).to.be.at.least(0);
  return at;
}

describe('chunkPage', () => {
  it('gives a short page as one chunk, trimmed, and a blank page as none', () => {
    expect(chunkPage('  A short page.\n')).to.deep.equal(['A short page.']);
    expect(chunkPage(' \n\n \t')).to.deep.equal([]);
  });

  it('keeps a page of exactly maxChars whole', () => {
    const page = 'x'.repeat(DEFAULT_CHUNK_CHARS);
    expect(chunkPage(page)).to.deep.equal([page]);
  });

  it('cuts a long paragraph at sentence ends, with a small overlap, covering the whole page', () => {
    const page = sentences(60, 's').join(' ');
    const chunks = chunkPage(page);
    expect(chunks.length).to.be.within(4, 7);
    let previousEnd = 0;
    let from = 0;
    chunks.forEach((chunk, index) => {
      expect(chunk.length).to.be.within(1, DEFAULT_CHUNK_CHARS);
      expect(chunk).to.match(/\.$/, 'ends at a sentence end');
      expect(chunk).to.match(/^Sentence s\d+ /, 'starts at a sentence');
      const at = offsetOf(page, chunk, from);
      if (index > 0) {
        const overlap = previousEnd - at;
        expect(overlap).to.be.within(1, 150);
      }
      previousEnd = at + chunk.length;
      from = at + 1;
    });
    expect(previousEnd).to.equal(page.length);
  });

  it('prefers a paragraph break when it leaves the chunk at least half full', () => {
    const first = sentences(9, 'a').join(' '); // about 750 characters
    const second = sentences(9, 'b').join(' ');
    const chunks = chunkPage(`${first}\n\n${second}`, { overlapChars: 0 });
    expect(chunks).to.deep.equal([first, second]);
  });

  it('cuts at a line break, and starts the overlap at one, when a paragraph has no sentence ends', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `item ${i} of a list without any full stop`);
    const chunks = chunkPage(lines.join('\n'), { maxChars: 300, overlapChars: 60 });
    expect(chunks.length).to.be.greaterThan(4);
    for (const chunk of chunks) {
      for (const line of chunk.split('\n')) expect(lines).to.include(line);
    }
    for (let i = 1; i < chunks.length; i++) {
      const lastLineBefore = chunks[i - 1]?.split('\n').pop();
      expect(chunks[i]?.startsWith(`${lastLineBefore}\n`)).to.equal(true);
    }
  });

  it('splits a word longer than a chunk, and never between the halves of a surrogate pair', () => {
    const word = '😀'.repeat(30); // 60 UTF-16 code units
    const chunks = chunkPage(`${word} tail`, { maxChars: 25, overlapChars: 0 });
    expect(chunks.join('').replace(/\s/g, '')).to.equal(`${word}tail`);
    for (const chunk of chunks) {
      expect(chunk.length).to.be.within(1, 25);
      expect(chunk).to.not.match(/^[\udc00-\udfff]|[\ud800-\udbff]$/);
    }
  });

  it('never gives an empty chunk and always moves forward, whatever the sizes', () => {
    const page = sentences(40, 'z').join('\n') + ' ' + 'y'.repeat(500);
    for (const [maxChars, overlapChars] of [[50, 24], [80, 0], [200, 99], [1200, 150]] as const) {
      const chunks = chunkPage(page, { maxChars, overlapChars });
      let from = 0;
      for (const chunk of chunks) {
        expect(chunk.trim()).to.equal(chunk);
        expect(chunk.length).to.be.within(1, maxChars);
        from = offsetOf(page, chunk, from) + 1;
      }
      expect(page.endsWith(chunks[chunks.length - 1] ?? '')).to.equal(true);
    }
  });

  it('refuses options that cannot work, with a stable code', () => {
    for (const options of [{ maxChars: 0 }, { maxChars: 1.5 }, { maxChars: 100, overlapChars: 50 }, { overlapChars: -1 }]) {
      expect(() => chunkPage('text', options)).to.throw(MemoryServiceError).with.property('code', 'DOCUMENT.INVALID_OPTIONS');
    }
  });
});
