import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { corrupt, encrypted, notPdf, truncated } from './errors.js';
import { looksLikePdf } from './looks-like-pdf.js';
import { startLoading, type PdfjsVerbosity } from './pdfjs-runtime.js';
import { looksTruncated } from './truncation.js';

export interface OpenOptions {
  /** pdfjs logging; errors only unless a test wants to see its warnings. */
  verbosity?: PdfjsVerbosity;
}

/**
 * Opens a PDF, hands it to `use`, and frees everything pdfjs holds for it afterwards, whatever happens. Failures
 * to open become DOCUMENT.* errors; failures inside `use` pass through, since only `use` knows what they mean.
 */
export async function withPdf<T>(bytes: Uint8Array, use: (doc: PDFDocumentProxy) => Promise<T>, options: OpenOptions = {}): Promise<T> {
  if (!looksLikePdf(bytes)) throw notPdf();
  if (looksTruncated(bytes)) throw truncated(bytes.byteLength);
  const task = await startLoading(bytes, options.verbosity);
  try {
    let doc: PDFDocumentProxy;
    try {
      doc = await task.promise;
    } catch (error) {
      throw openFailure(error);
    }
    return await use(doc);
  } finally {
    // Destroying the loading task destroys the document and its (fake) worker, even when opening failed.
    await task.destroy();
  }
}

function openFailure(error: unknown): Error {
  // pdfjs 5 does not export PasswordException; its name is part of its API (the viewer matches on it too).
  if (error instanceof Error && error.name === 'PasswordException') return encrypted(error);
  return corrupt(error);
}
