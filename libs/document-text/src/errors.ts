import { describeLimitPassed, type LimitPassed, MemoryServiceError } from '@memory/platform';

/** Stable codes; callers (HTTP edge, pipeline) map them to responses and job failures. */
export const DocumentErrorCode = {
  NOT_PDF: 'DOCUMENT.NOT_PDF',
  ENCRYPTED: 'DOCUMENT.ENCRYPTED',
  CORRUPT: 'DOCUMENT.CORRUPT',
  TRUNCATED: 'DOCUMENT.TRUNCATED',
  TOO_MANY_PAGES: 'DOCUMENT.TOO_MANY_PAGES',
  PAGE_OUT_OF_RANGE: 'DOCUMENT.PAGE_OUT_OF_RANGE',
  RENDER_UNAVAILABLE: 'DOCUMENT.RENDER_UNAVAILABLE',
  INVALID_OPTIONS: 'DOCUMENT.INVALID_OPTIONS',
  TOO_COMPLEX: 'DOCUMENT.TOO_COMPLEX',
} as const;

export type DocumentErrorCode = (typeof DocumentErrorCode)[keyof typeof DocumentErrorCode];

// None of these is retriable: the same bytes fail the same way every time.

export function notPdf(): MemoryServiceError {
  return new MemoryServiceError(
    DocumentErrorCode.NOT_PDF,
    'The file is not a PDF (no %PDF- header in its first 1024 bytes). Upload the document as a PDF file.',
  );
}

export function encrypted(cause: unknown): MemoryServiceError {
  return new MemoryServiceError(
    DocumentErrorCode.ENCRYPTED,
    'The PDF is password-protected, so its text cannot be read. Remove the password (for example, print or export it to a new PDF) and upload it again.',
    { cause },
  );
}

export function corrupt(cause: unknown, details?: Record<string, unknown>): MemoryServiceError {
  return new MemoryServiceError(
    DocumentErrorCode.CORRUPT,
    'The PDF is damaged and cannot be read. Open it in a PDF viewer and save or export it again, then upload the new file.',
    { cause, ...(details ? { details } : {}) },
  );
}

export function truncated(byteLength: number, cause?: unknown): MemoryServiceError {
  return new MemoryServiceError(
    DocumentErrorCode.TRUNCATED,
    `The PDF is incomplete: its ${byteLength} bytes stop before the end-of-file marker, as when an upload or download is cut off. Upload the complete file again.`,
    { details: { byteLength }, ...(cause === undefined ? {} : { cause }) },
  );
}

export function tooManyPages(pageCount: number, maxPages: number): MemoryServiceError {
  return new MemoryServiceError(
    DocumentErrorCode.TOO_MANY_PAGES,
    `The PDF has ${pageCount} pages; at most ${maxPages} are accepted. Split it into parts of at most ${maxPages} pages and upload each part.`,
    { details: { pageCount, maxPages } },
  );
}

export function pageOutOfRange(pageNumber: number, pageCount: number): MemoryServiceError {
  return new MemoryServiceError(
    DocumentErrorCode.PAGE_OUT_OF_RANGE,
    `Page ${pageNumber} does not exist: the PDF has pages 1 to ${pageCount}.`,
    { details: { pageNumber, pageCount } },
  );
}

export function renderUnavailable(cause: unknown): MemoryServiceError {
  return new MemoryServiceError(
    DocumentErrorCode.RENDER_UNAVAILABLE,
    'Pages cannot be rendered to images on this machine: the optional package @napi-rs/canvas could not be loaded. Install it (it ships prebuilt binaries for common platforms) to OCR scanned PDFs.',
    { cause },
  );
}

export function invalidOption(name: string, value: unknown, expected: string): MemoryServiceError {
  return new MemoryServiceError(
    DocumentErrorCode.INVALID_OPTIONS,
    `Option ${name} must be ${expected}; got ${String(value)}.`,
    { details: { option: name } },
  );
}

/**
 * Reading the PDF passed the time or memory one file may use (the file workers' limits): its pages are too
 * costly to render and OCR, as with pages of hundreds of thousands of drawing operations or huge embedded images.
 */
export function tooComplex(limit: LimitPassed): MemoryServiceError {
  return new MemoryServiceError(
    DocumentErrorCode.TOO_COMPLEX,
    `Reading the PDF needed ${describeLimitPassed(limit)}: its pages are too complex to render for OCR. Export or print it again as a PDF with a text layer, or split it into smaller parts, and upload those.`,
    { details: { ...limit } },
  );
}
