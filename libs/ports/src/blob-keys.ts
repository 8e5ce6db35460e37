import { MemoryServiceError } from '@memory/platform';

// The key and argument rules of the BlobStore port, shared by every adapter so a key means the same everywhere.

/** S3's limit on object names; every BlobStore keeps it, so a key valid on one adapter is valid on all. */
export const MAX_KEY_BYTES = 1024;
const MAX_CONTENT_TYPE_LENGTH = 255;
export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

// Control characters break logs and HTTP headers; a backslash is a path separator on Windows tools.
const FORBIDDEN = /[\u0000-\u001f\u007f\\]/;
// Printable ASCII without CR/LF: the value ends up in a header on an object store.
const CONTENT_TYPE = /^[\x20-\x7e]*$/;

function invalidKey(key: unknown, why: string): MemoryServiceError {
  return new MemoryServiceError('BLOB.INVALID_KEY', `invalid blob key ${JSON.stringify(key)}: ${why}`, { details: { why } });
}

/**
 * Keys are opaque, `/`-separated paths (`<tenant>/<endUser>/<id>`). Rules that would let a key name something
 * other than itself on some backend (`..`, `.`, empty segments, a leading or trailing `/`) are rejected everywhere.
 */
export function checkKey(key: unknown): string {
  if (typeof key !== 'string' || key === '') throw invalidKey(key, 'must be a non-empty string');
  if (Buffer.byteLength(key, 'utf8') > MAX_KEY_BYTES) throw invalidKey(key, `longer than ${MAX_KEY_BYTES} bytes`);
  // A lone surrogate does not survive UTF-8, so two different keys would name one blob.
  if (Buffer.from(key, 'utf8').toString('utf8') !== key) throw invalidKey(key, 'not well-formed Unicode');
  if (FORBIDDEN.test(key)) throw invalidKey(key, 'contains a control character or a backslash');
  if (key.startsWith('/') || key.endsWith('/')) throw invalidKey(key, 'starts or ends with "/"');
  for (const segment of key.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') throw invalidKey(key, `has a "${segment}" segment`);
  }
  return key;
}

/** A prefix names whole segments: a valid key followed by "/", so `acme/al/` never reaches `acme/alice/`. */
export function checkPrefix(prefix: unknown): string {
  if (typeof prefix !== 'string' || !prefix.endsWith('/')) throw invalidKey(prefix, 'a prefix must end with "/"');
  checkKey(prefix.slice(0, -1));
  return prefix;
}

export function checkContentType(contentType: unknown): string {
  if (contentType === undefined || contentType === null || contentType === '') return DEFAULT_CONTENT_TYPE;
  if (typeof contentType !== 'string' || contentType.length > MAX_CONTENT_TYPE_LENGTH || !CONTENT_TYPE.test(contentType)) {
    throw new MemoryServiceError('BLOB.INVALID_ARGUMENT', `invalid content type ${JSON.stringify(contentType)}: printable ASCII, at most ${MAX_CONTENT_TYPE_LENGTH} characters`);
  }
  return contentType;
}

export function checkMaxBytes(maxBytes: unknown): number {
  if (maxBytes === undefined) return Number.POSITIVE_INFINITY;
  if (typeof maxBytes !== 'number' || !Number.isSafeInteger(maxBytes) || maxBytes < 0) {
    throw new MemoryServiceError('BLOB.INVALID_ARGUMENT', `maxBytes must be a whole number of bytes, got ${String(maxBytes)}`);
  }
  return maxBytes;
}

export function tooLarge(key: string, maxBytes: number): MemoryServiceError {
  return new MemoryServiceError('BLOB.TOO_LARGE', `blob ${key} is larger than ${maxBytes} bytes`, { details: { maxBytes } });
}
