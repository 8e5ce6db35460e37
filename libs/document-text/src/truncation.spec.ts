import { expect } from 'chai';
import { hasEofMarker, looksTruncated } from './truncation.js';
import { textPdf } from './test/pdf-fixtures.js';

describe('truncation', () => {
  it('finds %%EOF at the end, also with trailing junk after it', async () => {
    const pdf = Buffer.from(await textPdf([{ lines: ['x'] }]));
    expect(hasEofMarker(pdf)).to.equal(true);
    expect(hasEofMarker(Buffer.concat([pdf, Buffer.alloc(500, 0)]))).to.equal(true);
    expect(looksTruncated(pdf)).to.equal(false);
  });

  it('calls a PDF cut in half truncated', async () => {
    const pdf = await textPdf([{ lines: ['x'] }, { lines: ['y'] }]);
    expect(looksTruncated(pdf.subarray(0, pdf.length >> 1))).to.equal(true);
  });

  it('does not call garbage after a %PDF- header truncated: there is no object to have been cut', () => {
    const garbage = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from('no objects here, just words and 1 2 3')]);
    expect(looksTruncated(garbage)).to.equal(false);
  });
});
