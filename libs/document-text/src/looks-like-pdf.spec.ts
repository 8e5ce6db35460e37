import { expect } from 'chai';
import { looksLikePdf } from './looks-like-pdf.js';
import { pngBytes } from './test/png.js';

describe('looksLikePdf', () => {
  it('accepts the %PDF- header at the start', () => {
    expect(looksLikePdf(Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'))).to.equal(true);
  });

  it('accepts junk before the header within the first 1024 bytes, as readers do', () => {
    expect(looksLikePdf(Buffer.concat([Buffer.alloc(1000, 0x20), Buffer.from('%PDF-1.4')]))).to.equal(true);
  });

  it('rejects a header that starts after the first 1024 bytes', () => {
    expect(looksLikePdf(Buffer.concat([Buffer.alloc(1020, 0x20), Buffer.from('%PDF-1.4')]))).to.equal(false);
  });

  it("rejects a PNG's bytes, an empty buffer and a near miss", () => {
    expect(looksLikePdf(pngBytes(4, 4, () => [0, 0, 0]))).to.equal(false);
    expect(looksLikePdf(Buffer.alloc(0))).to.equal(false);
    expect(looksLikePdf(Buffer.from('%PDF1.7 %PD'))).to.equal(false);
  });

  it('reads only the view it is given, not the rest of a shared buffer', () => {
    const pool = Buffer.from('xxxx%PDF-1.7');
    expect(looksLikePdf(pool.subarray(0, 6))).to.equal(false);
    expect(looksLikePdf(pool.subarray(4))).to.equal(true);
  });
});
