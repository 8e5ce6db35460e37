import { expect } from 'chai';
import { normaliseText } from './normalise-text.js';

describe('normaliseText', () => {
  it('collapses every kind of space and trims lines', () => {
    expect(normaliseText('  a\u00a0\tb   c  \n\u2003 d ')).to.equal('a b c\nd');
  });

  it('joins a word hyphenated at a line end and keeps the rest of the next line below', () => {
    expect(normaliseText('the extrac-\ntion of text\nworks')).to.equal('the extraction\nof text\nworks');
  });

  it('drops a line that was only the continuation of a hyphenated word', () => {
    expect(normaliseText('a long hyphen-\nation\nnext line')).to.equal('a long hyphenation\nnext line');
  });

  it('keeps a hyphen before a capital, a dash after a space, and a hyphen before a paragraph break', () => {
    expect(normaliseText('Jean-\nPaul')).to.equal('Jean-\nPaul');
    expect(normaliseText('wait -\nthen')).to.equal('wait -\nthen');
    expect(normaliseText('end-\n\nstart')).to.equal('end-\n\nstart');
  });

  it('joins at a soft hyphen whatever the case, and removes soft hyphens and zero-width characters elsewhere', () => {
    expect(normaliseText('Donau\u00ad\nDampfschiff')).to.equal('DonauDampfschiff');
    expect(normaliseText('co\u00adoper\u200bate\ufeff')).to.equal('cooperate');
  });

  it('joins a chain of hyphenated lines', () => {
    expect(normaliseText('in-\ncom-\nprehensible words')).to.equal('incomprehensible\nwords');
  });

  it('collapses blank lines to one paragraph break and strips control characters', () => {
    expect(normaliseText('\n\none\r\n\r\n\r\n\ntwo\u0000\u0007\n\n')).to.equal('one\n\ntwo');
  });
});
