import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { chunkPage } from './chunk-page.js';
import { extractDocument } from './extract-document.js';
import { extractPage } from './extract-page.js';
import { withPdf } from './open-pdf.js';
import { loadPdfjs } from './pdfjs-runtime.js';
import { japanesePdf } from './test/cjk-pdf.js';
import { encryptedPdf } from './test/encrypted-pdf.js';
import { failureOf } from './test/failure.js';
import { withoutNetwork, withPdfjsMessages } from './test/offline.js';
import { imageOnlyPdf, sentences, textPdf } from './test/pdf-fixtures.js';
import { pngBytes } from './test/png.js';

const PHRASES = ['amber falcon', 'cobalt river', 'violet harbour', 'saffron meadow', 'crimson quarry'];

describe('extractDocument', function () {
  // pdfjs loads a few MB of JavaScript on first use; the shared CI machine can be slow.
  this.timeout(60_000);

  let fivePages: Uint8Array;
  before(async () => {
    fivePages = await textPdf(
      PHRASES.map((phrase, i) => ({ lines: [`Page ${i + 1} of the atlas.`, `It talks about the ${phrase} only.`] })),
      { title: 'The Atlas', author: 'Ada Lovelace' },
    );
  });

  it('reads every page of a 5-page PDF, each phrase on its own page only', async () => {
    const doc = await extractDocument(fivePages);
    expect(doc.pageCount).to.equal(5);
    expect(doc.pages.map((p) => p.pageNumber)).to.deep.equal([1, 2, 3, 4, 5]);
    expect(doc.pages.filter((p) => p.text.includes('violet harbour')).map((p) => p.pageNumber)).to.deep.equal([3]);
    expect(doc.pages[2]?.text).to.equal('Page 3 of the atlas.\nIt talks about the violet harbour only.');
    expect(doc.pages.every((p) => p.hasTextLayer)).to.equal(true);
    expect(doc.scanned).to.equal(false);
    expect(doc.title).to.equal('The Atlas');
    expect(doc.author).to.equal('Ada Lovelace');
  });

  it('gives null title and author when the PDF has none', async () => {
    const doc = await extractDocument(await textPdf([{ lines: ['untitled'] }]));
    expect(doc.title).to.equal(null);
    expect(doc.author).to.equal(null);
  });

  it('keeps line breaks, marks paragraph gaps and joins words hyphenated at a line end', async () => {
    const pdf = await textPdf([{ lines: ['Extraction of text from PDF docu-', 'ments keeps its lines.', '', 'A second paragraph follows.'] }]);
    const doc = await extractDocument(pdf);
    expect(doc.pages[0]?.text).to.equal('Extraction of text from PDF documents\nkeeps its lines.\n\nA second paragraph follows.');
  });

  it('gives a long page that chunks into several chunks, losing no sentence', async () => {
    const paragraphs = [0, 1, 2, 3].map((p) => sentences(9, `p${p}x`).join(' '));
    const doc = await extractDocument(await textPdf([{ paragraphs }]));
    const text = doc.pages[0]?.text ?? '';
    expect(text.split('\n\n')).to.have.length(4);
    const chunks = chunkPage(text);
    expect(chunks.length).to.be.within(3, 5);
    for (const chunk of chunks) expect(chunk.length).to.be.within(1, 1200);
    for (let p = 0; p < 4; p++) {
      for (let s = 0; s < 9; s++) expect(chunks.some((c) => c.replace(/\s+/g, ' ').includes(`Sentence p${p}x${s} `))).to.equal(true);
    }
  });

  it('says a PDF of pictures only is scanned: no page has a text layer', async () => {
    const doc = await extractDocument(await imageOnlyPdf(2));
    expect(doc.pageCount).to.equal(2);
    expect(doc.scanned).to.equal(true);
    expect(doc.pages.map((p) => [p.hasTextLayer, p.text])).to.deep.equal([[false, ''], [false, '']]);
  });

  it('tells text pages from picture pages in a mixed PDF', async () => {
    const { PDFDocument } = await import('pdf-lib');
    const mixed = await PDFDocument.create();
    const [textPage] = await mixed.copyPages(await PDFDocument.load(fivePages), [0]);
    const [scanPage] = await mixed.copyPages(await PDFDocument.load(await imageOnlyPdf()), [0]);
    mixed.addPage(textPage);
    mixed.addPage(scanPage);
    const doc = await extractDocument(await mixed.save());
    expect(doc.scanned).to.equal(false);
    expect(doc.pages.map((p) => p.hasTextLayer)).to.deep.equal([true, false]);
  });

  it('refuses a PDF cut in half as TRUNCATED, asking for the complete file', async () => {
    const error = await failureOf(extractDocument(fivePages.subarray(0, fivePages.length >> 1)));
    expect(error.code).to.equal('DOCUMENT.TRUNCATED');
    expect(error.retriable).to.equal(false);
    expect(error.message).to.match(/upload the complete file/i);
  });

  it('refuses random bytes behind a %PDF- header as CORRUPT', async () => {
    const garbage = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(8 * 1024), Buffer.from('\n%%EOF\n')]);
    for (const bytes of [garbage, garbage.subarray(0, 4096)]) {
      const error = await failureOf(extractDocument(bytes));
      expect(error.code).to.equal('DOCUMENT.CORRUPT');
      expect(error.message).to.match(/save or export it again/i);
    }
  });

  it("refuses a PNG's bytes as NOT_PDF without parsing them", async () => {
    const error = await failureOf(extractDocument(pngBytes(8, 8, () => [1, 2, 3])));
    expect(error.code).to.equal('DOCUMENT.NOT_PDF');
  });

  it('refuses a PDF with a user password as ENCRYPTED', async () => {
    const locked = encryptedPdf({ userPassword: 'secret', text: 'Behind a password' });
    const error = await failureOf(extractDocument(locked));
    expect(error.code).to.equal('DOCUMENT.ENCRYPTED');
    expect(error.message).to.match(/password/);
    expect((error.cause as Error).name).to.equal('PasswordException');

    // The fixture is a genuine encrypted PDF, not a damaged one: with its password pdfjs reads the text.
    const pdfjs = await loadPdfjs();
    const task = pdfjs.getDocument({ data: new Uint8Array(locked), password: 'secret', isEvalSupported: false });
    try {
      const page = await (await task.promise).getPage(1);
      const content = await page.getTextContent();
      expect(content.items.map((item) => ('str' in item ? item.str : '')).join('')).to.equal('Behind a password');
    } finally {
      await task.destroy();
    }
  });

  it('reads a PDF encrypted with an empty user password (permissions only), as viewers do', async () => {
    const doc = await extractDocument(encryptedPdf({ userPassword: '', ownerPassword: 'boss', text: 'Copying is restricted' }));
    expect(doc.pages[0]?.text).to.equal('Copying is restricted');
  });

  it('refuses more pages than maxPages (default 500) before reading any, and validates the option', async () => {
    const error = await failureOf(extractDocument(fivePages, { maxPages: 4 }));
    expect(error.code).to.equal('DOCUMENT.TOO_MANY_PAGES');
    expect(error.details).to.deep.equal({ pageCount: 5, maxPages: 4 });
    expect(error.message).to.match(/split/i);
    expect((await extractDocument(fivePages, { maxPages: 5 })).pageCount).to.equal(5);
    expect((await failureOf(extractDocument(fivePages, { maxPages: 0 }))).code).to.equal('DOCUMENT.INVALID_OPTIONS');
  });

  it("accepts a Buffer and leaves the caller's bytes usable (pdfjs would detach them)", async () => {
    const bytes = Buffer.from(fivePages);
    await extractDocument(bytes);
    expect(bytes.byteLength).to.equal(fivePages.byteLength);
    expect((await extractDocument(bytes)).pageCount).to.equal(5);
  });

  it('reads CMaps from disk, offline: Japanese text in a CID font, no fetch, no pdfjs warning', async () => {
    const pdf = japanesePdf('日本語のテキスト');
    // At verbosity 1 pdfjs warns about CMap or font data it could not load.
    const { result, messages } = await withPdfjsMessages(() =>
      withoutNetwork(() => withPdf(pdf, (doc) => extractPage(doc, 1), { verbosity: 1 })),
    );
    expect(result.result.text).to.equal('日本語のテキスト');
    expect(result.fetches).to.deep.equal([]);
    expect(messages).to.deep.equal([]);
  });
});
