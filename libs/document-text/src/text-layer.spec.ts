import { expect } from 'chai';
import { isReadableText } from './text-layer.js';

describe('isReadableText', () => {
  it('needs at least one letter or digit, in any script', () => {
    expect(isReadableText('Hello')).to.equal(true);
    expect(isReadableText('42')).to.equal(true);
    expect(isReadableText('日本語')).to.equal(true);
  });

  it('treats blank text, symbols and private-use glyph codes as no text layer', () => {
    expect(isReadableText('')).to.equal(false);
    expect(isReadableText('• — … ©')).to.equal(false);
    expect(isReadableText('\ue001\ue002 \uf0b7')).to.equal(false);
  });
});
