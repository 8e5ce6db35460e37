import { expect } from 'chai';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { renderPage, renderPageWith } from './render-page.js';
import { encryptedPdf } from './test/encrypted-pdf.js';
import { failureOf } from './test/failure.js';
import { withoutNetwork, withPdfjsMessages } from './test/offline.js';
import { imageOnlyPdf, textPdf } from './test/pdf-fixtures.js';
import { pngSize } from './test/png.js';

/** Decodes a PNG and returns a reader of its pixels. */
async function pixels(png: Buffer): Promise<(x: number, y: number) => [number, number, number, number]> {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const { data } = context.getImageData(0, 0, image.width, image.height);
  return (x, y) => {
    const i = (y * image.width + x) * 4;
    return [data[i] ?? -1, data[i + 1] ?? -1, data[i + 2] ?? -1, data[i + 3] ?? -1];
  };
}

describe('renderPage', function () {
  this.timeout(60_000);

  let letter: Uint8Array;
  before(async () => {
    letter = await textPdf([{ lines: ['RENDERED HEADLINE', 'and a second line'] }, { lines: ['page two'] }]);
  });

  it('renders page 1 of a Letter page to a PNG of 2 pixels per point by default', async () => {
    const png = await renderPage(letter, 1);
    expect(png.subarray(0, 8).toString('hex')).to.equal('89504e470d0a1a0a');
    expect(pngSize(png)).to.deep.equal({ width: 1224, height: 1584 });
  });

  it('follows scale, and caps the longer side at maxSide', async () => {
    expect(pngSize(await renderPage(letter, 2, { scale: 1 }))).to.deep.equal({ width: 612, height: 792 });
    expect(pngSize(await renderPage(letter, 1, { maxSide: 1000 }))).to.deep.equal({ width: 773, height: 1000 });
  });

  it('draws the text with the standard fonts read from disk, on white, offline and without pdfjs warnings', async () => {
    // At verbosity 1 pdfjs warns about font data it could not load (and then draws with a substitute).
    const { result, messages } = await withPdfjsMessages(() =>
      withoutNetwork(() => renderPageWith(letter, 1, { scale: 1 }, { verbosity: 1 })),
    );
    expect(result.fetches).to.deep.equal([]);
    expect(messages).to.deep.equal([]);
    const png = result.result;
    const at = await pixels(png);
    expect(at(5, 5)).to.deep.equal([255, 255, 255, 255]);
    // The headline's baseline is 56 pt below the top margin: 736 pt up, so about 56 px down at scale 1.
    let dark = 0;
    for (let y = 40; y < 60; y++) for (let x = 56; x < 160; x++) if ((at(x, y)[0] ?? 255) < 128) dark++;
    expect(dark).to.be.greaterThan(100);
  });

  it('renders the picture of a scanned page', async () => {
    const at = await pixels(await renderPage(await imageOnlyPdf(), 1));
    const [r, g, b] = at(61, 61);
    expect(r).to.be.greaterThan(180);
    expect(g).to.be.lessThan(90);
    expect(b).to.be.lessThan(90);
    // A dark stripe of the picture: its row 41 of 260, column 100 of 200, stretched over the page at scale 2.
    expect(at(615, 253)[0]).to.be.lessThan(90);
  });

  it('refuses a page that does not exist, bad options, and protected PDFs, with stable codes', async () => {
    const missing = await failureOf(renderPage(letter, 3));
    expect(missing.code).to.equal('DOCUMENT.PAGE_OUT_OF_RANGE');
    expect(missing.details).to.deep.equal({ pageNumber: 3, pageCount: 2 });
    expect((await failureOf(renderPage(letter, 0))).code).to.equal('DOCUMENT.INVALID_OPTIONS');
    expect((await failureOf(renderPage(letter, 1, { scale: -1 }))).code).to.equal('DOCUMENT.INVALID_OPTIONS');
    const locked = encryptedPdf({ userPassword: 'secret', text: 'x' });
    expect((await failureOf(renderPage(locked, 1))).code).to.equal('DOCUMENT.ENCRYPTED');
  });
});
