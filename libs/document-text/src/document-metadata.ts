import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

export interface DocumentMetadata {
  title: string | null;
  author: string | null;
}

/**
 * Title and author from the document information dictionary, else from the XMP packet (dc:title, dc:creator).
 * Metadata is a nicety: a damaged dictionary gives nulls rather than failing the whole extraction.
 */
export async function readMetadata(doc: PDFDocumentProxy): Promise<DocumentMetadata> {
  try {
    const { info, metadata } = await doc.getMetadata();
    const fields = (info ?? {}) as Record<string, unknown>;
    return {
      title: clean(fields['Title']) ?? clean(metadata?.get('dc:title')),
      author: clean(fields['Author']) ?? clean(metadata?.get('dc:creator')),
    };
  } catch {
    return { title: null, author: null };
  }
}

function clean(value: unknown): string | null {
  const text = Array.isArray(value) ? value.filter((v) => typeof v === 'string').join(', ') : value;
  if (typeof text !== 'string') return null;
  const trimmed = text.replace(/\s+/g, ' ').trim();
  return trimmed === '' ? null : trimmed;
}
