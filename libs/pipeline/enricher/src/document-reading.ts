import { chunkPage } from '@memory/document-text';
import type { MemoryResolved, PageTextSource } from '@memory/contracts';
import { MemoryServiceError } from '@memory/platform';
import type { ImageReadingDeps } from './image-reading.js';

export interface DocumentChunk {
  pageNumber: number;
  pageCount: number;
  chunkIndex: number;
  chunkCount: number;
  text: string;
  textSource: PageTextSource;
}

/**
 * A PDF as the memories it becomes: one per page, or per chunk of a long page. A page without a text layer (a
 * scan) is rendered and read by OCR, in the file workers, within their limits per file. Pages with no readable
 * text at all make no memory; a document with none makes one memory that says so, so the job still completes and
 * the upload is findable by its name.
 */
export async function readDocument(value: MemoryResolved, deps: ImageReadingDeps): Promise<DocumentChunk[]> {
  if (!value.blob) throw new MemoryServiceError('ENRICH.NO_BLOB', `document job ${value.jobId} carries no blob reference`);
  const chunks: Buffer[] = [];
  for await (const chunk of await deps.blobs.get(value.blob.key)) chunks.push(Buffer.from(chunk as Uint8Array));
  const bytes = Buffer.concat(chunks);
  const document = await deps.files.readDocument(bytes);

  const result: DocumentChunk[] = [];
  for (const page of document.pages) {
    const pieces = chunkPage(page.text);
    pieces.forEach((text, chunkIndex) =>
      result.push({ pageNumber: page.pageNumber, pageCount: document.pageCount, chunkIndex, chunkCount: pieces.length, text, textSource: page.textSource }),
    );
  }
  if (result.length === 0) {
    const name = value.blob.fileName ?? 'PDF document';
    result.push({ pageNumber: 1, pageCount: document.pageCount, chunkIndex: 0, chunkCount: 1, text: `${name}: ${document.pageCount} pages with no readable text (scanned)`, textSource: 'none' });
  }
  return result;
}
