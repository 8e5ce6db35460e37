import { PDFDocument, StandardFonts } from 'pdf-lib';

/** A PDF with one known sentence per page, written by the test (pdf-lib), so search can be checked page by page. */
export async function writePdf(pages: string[]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const text of pages) {
    const page = pdf.addPage([595, 842]);
    page.drawText(text, { x: 50, y: 760, size: 12, font, maxWidth: 495, lineHeight: 16 });
  }
  return Buffer.from(await pdf.save());
}

export const MANUAL_PAGES = [
  'Page 1. Installation guide for the Vesta condensing boiler, model VC-30.',
  'Page 2. Connect the flue pipe before the gas supply and check for leaks with soapy water.',
  'Page 3. The warranty covers the heat exchanger for ten years when the boiler is serviced annually.',
  'Page 4. Descale the condensate trap every autumn; a blocked trap shows fault code F28.',
  'Page 5. Contact the Northfield service centre for spare parts and repairs.',
];

/** A scanned document: one page that is only a picture (no text layer), with words OCR can read. */
export async function writeScannedPdf(png: Buffer): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const image = await pdf.embedPng(png);
  const page = pdf.addPage([image.width, image.height]);
  page.drawImage(image, { x: 0, y: 0, width: image.width, height: image.height });
  return Buffer.from(await pdf.save());
}
