import type { FileHandle } from 'node:fs/promises';
import { MemoryServiceError } from '@memory/platform';

/**
 * One file per blob: the bytes, then a small JSON trailer (key, size, content type), its length and a magic
 * marker. Keeping the metadata inside the file makes a write one atomic rename: a reader never sees new bytes
 * with an old content type, as it could with a sidecar file renamed separately. The trailer goes last because a
 * streamed upload knows its size only at the end.
 */
const MAGIC = Buffer.from('MEMBLOB1', 'ascii');
const FOOTER_BYTES = 4 + MAGIC.length;
const MAX_TRAILER_BYTES = 64 * 1024;

export interface BlobMeta {
  key: string;
  size: number;
  contentType: string;
}

export function encodeTrailer(meta: BlobMeta): Buffer {
  const json = Buffer.from(JSON.stringify({ v: 1, key: meta.key, size: meta.size, contentType: meta.contentType }), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(json.length);
  return Buffer.concat([json, length, MAGIC]);
}

/** Reads and checks the trailer of an open blob file. */
export async function readTrailer(handle: FileHandle, path: string): Promise<BlobMeta> {
  const { size: fileSize } = await handle.stat();
  const corrupt = (why: string) => new MemoryServiceError('BLOB.CORRUPT', `blob file ${path} is damaged: ${why}`, { details: { path } });
  if (fileSize < FOOTER_BYTES) throw corrupt('shorter than its footer');

  const footer = Buffer.alloc(FOOTER_BYTES);
  await handle.read(footer, 0, FOOTER_BYTES, fileSize - FOOTER_BYTES);
  if (!footer.subarray(4).equals(MAGIC)) throw corrupt('no blob marker');
  const jsonLength = footer.readUInt32BE(0);
  if (jsonLength > MAX_TRAILER_BYTES || jsonLength > fileSize - FOOTER_BYTES) throw corrupt('trailer length out of range');

  const json = Buffer.alloc(jsonLength);
  await handle.read(json, 0, jsonLength, fileSize - FOOTER_BYTES - jsonLength);
  let parsed: { key?: unknown; size?: unknown; contentType?: unknown };
  try {
    parsed = JSON.parse(json.toString('utf8')) as typeof parsed;
  } catch {
    throw corrupt('trailer is not JSON');
  }
  const { key, size, contentType } = parsed;
  if (typeof key !== 'string' || typeof contentType !== 'string' || typeof size !== 'number') throw corrupt('trailer fields missing');
  if (size !== fileSize - FOOTER_BYTES - jsonLength) throw corrupt(`trailer says ${size} bytes, file holds ${fileSize - FOOTER_BYTES - jsonLength}`);
  return { key, size, contentType };
}
