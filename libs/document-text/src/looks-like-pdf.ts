/** Readers accept the header anywhere in the first 1024 bytes (some producers put junk before it). */
export const PDF_HEADER_WINDOW = 1024;

const HEADER = Buffer.from('%PDF-', 'latin1');

/**
 * Whether bytes start like a PDF: `%PDF-` within the first 1024 bytes. Enough of the head of an upload to decide
 * before storing the rest of it; it says nothing about whether the rest is readable.
 */
export function looksLikePdf(head: Uint8Array): boolean {
  const window = Buffer.from(head.buffer, head.byteOffset, Math.min(head.byteLength, PDF_HEADER_WINDOW));
  return window.indexOf(HEADER) !== -1;
}
