/** Readers look for the end-of-file marker within the last 1024 bytes, tolerating trailing junk after it. */
const TAIL_WINDOW = 1024;
/** A PDF's first indirect object comes soon after the header; a cut-off file still has that beginning. */
const HEAD_WINDOW = 64 * 1024;

const EOF_MARKER = Buffer.from('%%EOF', 'latin1');
const INDIRECT_OBJECT = /\d+\s+\d+\s+obj\b/;

function view(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function hasEofMarker(bytes: Uint8Array): boolean {
  const all = view(bytes);
  return all.subarray(Math.max(0, all.length - TAIL_WINDOW)).indexOf(EOF_MARKER) !== -1;
}

/**
 * A file that begins like a real PDF (it has at least one `n g obj`) but has no `%%EOF` at its end was cut off,
 * typically by an interrupted upload. Telling this apart from garbage after a `%PDF-` header gives the user the
 * right advice (upload again, rather than repair the file). PDF readers can often rebuild such a file partially,
 * but that would silently index part of a document, so it is refused even then.
 */
export function looksTruncated(bytes: Uint8Array): boolean {
  if (hasEofMarker(bytes)) return false;
  const head = view(bytes).subarray(0, HEAD_WINDOW).toString('latin1');
  return INDIRECT_OBJECT.test(head);
}
