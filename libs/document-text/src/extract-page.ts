import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { corrupt } from './errors.js';
import { normaliseText } from './normalise-text.js';
import { joinTextRuns, type TextRun } from './page-text.js';
import { isReadableText } from './text-layer.js';
import type { ExtractedPage } from './types.js';

export async function extractPage(doc: PDFDocumentProxy, pageNumber: number): Promise<ExtractedPage> {
  const runs: TextRun[] = [];
  try {
    const page = await doc.getPage(pageNumber);
    try {
      const content = await page.getTextContent();
      // Marked-content items carry no text (they only appear with includeMarkedContent); keep real runs.
      for (const item of content.items) if ('str' in item) runs.push(item);
    } finally {
      // Fonts and operator lists parsed for this page are not needed again; big documents stay small in memory.
      page.cleanup();
    }
  } catch (error) {
    throw corrupt(error, { pageNumber });
  }
  const text = normaliseText(joinTextRuns(runs));
  return { pageNumber, text, hasTextLayer: isReadableText(text) };
}
