import { expect } from 'chai';
import sharp from 'sharp';
import { sniffFormat } from './formats.js';

describe('sniffFormat', () => {
  const base = () => sharp({ create: { width: 16, height: 12, channels: 3, background: '#336699' } });

  it('recognises every allowed container from its first bytes', async () => {
    expect(sniffFormat(await base().jpeg().toBuffer())).to.deep.equal({ accepted: true, format: 'jpeg' });
    expect(sniffFormat(await base().png().toBuffer())).to.deep.equal({ accepted: true, format: 'png' });
    expect(sniffFormat(await base().webp().toBuffer())).to.deep.equal({ accepted: true, format: 'webp' });
    expect(sniffFormat(await base().gif().toBuffer())).to.deep.equal({ accepted: true, format: 'gif' });
    expect(sniffFormat(await base().tiff().toBuffer())).to.deep.equal({ accepted: true, format: 'tiff' });
    expect(sniffFormat(await base().avif().toBuffer())).to.deep.equal({ accepted: true, format: 'isobmff-image' });
  });

  it('names SVG (with a BOM, an XML prolog or leading blanks) as script-capable', () => {
    for (const text of ['<svg xmlns="http://www.w3.org/2000/svg"/>', '\ufeff  <?xml version="1.0"?>\n<svg/>', '\n<!-- x -->\n<svg>']) {
      const sniffed = sniffFormat(Buffer.from(text, 'utf8'));
      expect(sniffed).to.include({ accepted: false, detected: 'svg' });
      expect(sniffed && !sniffed.accepted && sniffed.why).to.match(/script/);
    }
    expect(sniffFormat(Buffer.from('<!DOCTYPE html><html><body>'))).to.include({ accepted: false, detected: 'html' });
  });

  it('names other known formats so the refusal can say what was sent', () => {
    expect(sniffFormat(Buffer.from('%PDF-1.7\n%âãÏÓ', 'latin1'))).to.include({ accepted: false, detected: 'pdf' });
    const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom\0\0\0\0isomiso2', 'latin1')]);
    expect(sniffFormat(mp4)).to.include({ accepted: false, detected: 'iso-bmff:isom' });
  });

  it('returns null for bytes it does not recognise', () => {
    expect(sniffFormat(Buffer.from('hello, this is plain text'))).to.equal(null);
    expect(sniffFormat(Buffer.from([0xff]))).to.equal(null);
  });
});
