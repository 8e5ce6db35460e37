import type { PageTextSource } from '@memory/contracts';
import { extractDocument, renderPage } from '@memory/document-text';
import { analyzeImage, type ImageFeatures, type Ocr, type OcrResult } from '@memory/image-analysis';

/** A page of a PDF with readable text, from its text layer or, for a scanned page, from OCR of its rendering. */
export interface DocumentPage {
  pageNumber: number;
  text: string;
  textSource: Exclude<PageTextSource, 'none'>;
}

export interface DocumentPages {
  pageCount: number;
  /** Only the pages with readable text, in page order. */
  pages: DocumentPage[];
}

export interface ImageReading {
  features: ImageFeatures;
  /** The image's text in reading order, trimmed; '' when it has none. */
  ocrText: string;
}

/** What a file worker can be asked to do, each with its input and its answer. */
export interface FileTasks {
  document: { input: { bytes: Uint8Array }; output: DocumentPages };
  image: { input: { bytes: Uint8Array; now: number }; output: ImageReading };
  imageFeatures: { input: { bytes: Uint8Array; now: number }; output: ImageFeatures };
  imageText: { input: { bytes: Uint8Array }; output: OcrResult };
}

export type FileTaskKind = keyof FileTasks;

/** Runs one task; called in a file worker, with that worker's one OCR engine. */
export async function runTask<K extends FileTaskKind>(kind: K, input: FileTasks[K]['input'], ocr: Ocr): Promise<FileTasks[K]['output']> {
  const tasks: { [T in FileTaskKind]: (input: FileTasks[T]['input']) => Promise<FileTasks[T]['output']> } = {
    document: ({ bytes }) => readDocumentPages(bytes, ocr),
    image: async ({ bytes, now }) => {
      const image = asBuffer(bytes);
      const features = await analyzeImage(image, { now });
      return { features, ocrText: (await ocr.read(image)).text.trim() };
    },
    imageFeatures: ({ bytes, now }) => analyzeImage(asBuffer(bytes), { now }),
    imageText: ({ bytes }) => ocr.read(asBuffer(bytes)),
  };
  return tasks[kind](input);
}

async function readDocumentPages(bytes: Uint8Array, ocr: Ocr): Promise<DocumentPages> {
  const document = await extractDocument(bytes);
  const pages: DocumentPage[] = [];
  for (const page of document.pages) {
    if (page.hasTextLayer) {
      pages.push({ pageNumber: page.pageNumber, text: page.text, textSource: 'text_layer' });
      continue;
    }
    const text = (await ocr.read(await renderPage(bytes, page.pageNumber))).text.trim();
    if (text) pages.push({ pageNumber: page.pageNumber, text, textSource: 'ocr' });
  }
  return { pageCount: document.pageCount, pages };
}

/** Bytes arrive over IPC as a plain Uint8Array; the image library wants a Buffer (a view, not a copy). */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
