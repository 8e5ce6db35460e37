import { readMetadata } from './document-metadata.js';
import { invalidOption, tooManyPages } from './errors.js';
import { extractPage } from './extract-page.js';
import { withPdf } from './open-pdf.js';
import type { ExtractedDocument, ExtractedPage, ExtractOptions } from './types.js';

/** Enough for books and long reports; beyond it one upload would hold a pipeline stage for minutes. */
export const DEFAULT_MAX_PAGES = 500;

/**
 * Reads the text of every page of a PDF, in page order. Refuses, with a DOCUMENT.* MemoryServiceError whose
 * message tells the user what to do: bytes that are not a PDF (NOT_PDF), a cut-off file (TRUNCATED), a damaged one
 * (CORRUPT), a password-protected one (ENCRYPTED; a PDF that only restricts printing or copying opens fine), and
 * one with more than `maxPages` pages (TOO_MANY_PAGES, checked before any page is read).
 */
export async function extractDocument(bytes: Uint8Array, options: ExtractOptions = {}): Promise<ExtractedDocument> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  if (!Number.isInteger(maxPages) || maxPages < 1) throw invalidOption('maxPages', maxPages, 'a positive integer');
  return withPdf(bytes, async (doc) => {
    if (doc.numPages > maxPages) throw tooManyPages(doc.numPages, maxPages);
    const { title, author } = await readMetadata(doc);
    const pages: ExtractedPage[] = [];
    // One page at a time: pdfjs serialises work on its single worker anyway, and memory stays flat.
    for (let pageNumber = 1; pageNumber <= doc.numPages; pageNumber++) {
      pages.push(await extractPage(doc, pageNumber));
    }
    return {
      pageCount: doc.numPages,
      pages,
      title,
      author,
      scanned: pages.length > 0 && pages.every((page) => !page.hasTextLayer),
    };
  });
}
