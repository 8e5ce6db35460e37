import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import { pngBytes } from './png.js';

export const LETTER = [612, 792] as const;
const MARGIN = 56;
const FONT_SIZE = 10;
const LEADING = 12;

/** A page of paragraphs; each paragraph is word-wrapped to the page width, with a blank line between them. */
export type PageSpec = { paragraphs: string[] } | { lines: string[] };

export interface TextPdfOptions {
  title?: string;
  author?: string;
}

/** A PDF with a real text layer (Helvetica, not embedded, as many office exports do). */
export async function textPdf(pages: PageSpec[], options: TextPdfOptions = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  if (options.title) doc.setTitle(options.title);
  if (options.author) doc.setAuthor(options.author);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const spec of pages) {
    const page = doc.addPage([...LETTER]);
    const lines = 'lines' in spec ? spec.lines : spec.paragraphs.flatMap((p, i) => [...(i > 0 ? [''] : []), ...wrap(p, font)]);
    drawLines(page, font, lines);
  }
  return doc.save();
}

function drawLines(page: PDFPage, font: PDFFont, lines: string[]): void {
  let y = LETTER[1] - MARGIN;
  for (const line of lines) {
    if (y < MARGIN) throw new Error('fixture text does not fit on one page');
    // One drawText per line, so a blank line is a real gap on the page, as in typeset text.
    if (line !== '') page.drawText(line, { x: MARGIN, y, size: FONT_SIZE, font });
    y -= LEADING;
  }
}

function wrap(paragraph: string, font: PDFFont): string[] {
  const width = LETTER[0] - 2 * MARGIN;
  const lines: string[] = [];
  let line = '';
  for (const word of paragraph.split(/\s+/)) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && font.widthOfTextAtSize(candidate, FONT_SIZE) > width) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** A page that is only a picture, as a scanner makes it: no text operators at all. */
export async function imageOnlyPdf(pageCount = 1): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const image = await doc.embedPng(pngBytes(200, 260, (x, y) => (x > 20 && x < 180 && y % 20 < 3 ? [20, 20, 20] : [230, 30, 30])));
  for (let i = 0; i < pageCount; i++) {
    const page = doc.addPage([...LETTER]);
    page.drawImage(image, { x: 0, y: 0, width: LETTER[0], height: LETTER[1] });
  }
  return doc.save();
}

/** Deterministic prose: `count` sentences that each name their own number, so tests can find them. */
export function sentences(count: number, tag: string): string[] {
  const words = ['harbour', 'lantern', 'orchard', 'quarry', 'meadow', 'glacier', 'furnace', 'compass', 'thimble', 'saddle'];
  return Array.from({ length: count }, (_, i) => {
    const w = (k: number): string => words[(i * 7 + k * 3) % words.length] ?? 'word';
    return `Sentence ${tag}${i} tells of the ${w(0)} near the ${w(1)} and a ${w(2)} beyond the old ${w(3)}.`;
  });
}
