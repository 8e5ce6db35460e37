/** What new Blob takes, named without the DOM library's BlobPart (Node's own types have none). */
export type BlobParts = ConstructorParameters<typeof Blob>[0];

/** Bytes the helpers accept wherever an image or a PDF goes: what fetch, FileReader and Node's fs hand out. */
export type BinarySource = Uint8Array | ArrayBuffer | Blob;

async function bytesOf(source: BinarySource): Promise<Uint8Array> {
  if (source instanceof Uint8Array) return source;
  if (source instanceof ArrayBuffer) return new Uint8Array(source);
  return new Uint8Array(await source.arrayBuffer());
}

/** Standard base64 of some bytes, with btoa (Node 16+ and browsers), a chunk at a time to keep the call stack small. */
export function base64Encode(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function base64Decode(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** An image as the `imageData` (and `queryImage`) field wants it: base64 of its bytes. A string is taken as base64 already. */
export async function imageData(image: BinarySource | string): Promise<string> {
  return typeof image === 'string' ? image : base64Encode(await bytesOf(image));
}

/**
 * A PDF as a Blob for the multipart upload, always typed application/pdf: the service refuses a file part of any
 * other type (415 DOCUMENT.UNSUPPORTED_TYPE), and a Blob's own type is often application/octet-stream or empty.
 * A Blob is wrapped, not read, so it can be re-sent on a retry.
 */
export function pdfBlob(pdf: BinarySource): Blob {
  if (pdf instanceof Blob && pdf.type === 'application/pdf') return pdf;
  return new Blob([pdf] as BlobParts, { type: 'application/pdf' });
}
