import { objectOf, RequestError } from '@memory/platform';
import { parseSearchFilters, searchLimit } from '@memory/search';
import { isValidTimeZone } from '@memory/temporal';
import { REQUEST_LIMITS } from './limits.js';
import { validateMetadata } from './metadata.js';

/**
 * Request validators. Each returns a typed value or throws a RequestError naming the field and what to send
 * instead; the types of the validated requests are these functions' return types, not written twice.
 */
/** The characters of an end user id, and of every id the service issues (an id embeds its end user's, joined by '_'). */
export const ID_PATTERN = /^[A-Za-z0-9._@:+-]+$/;

export function validateEndUserId(raw: string | undefined): string {
  if (raw === undefined || raw.trim() === '') {
    throw new RequestError(400, 'REQUEST.MISSING_END_USER', 'the x-end-user-id header is required on this endpoint: send the id of the end user whose memories this request acts on');
  }
  if (raw.length > REQUEST_LIMITS.endUserIdMaxChars || !ID_PATTERN.test(raw)) {
    throw new RequestError(400, 'REQUEST.INVALID_END_USER', `x-end-user-id must be 1-${REQUEST_LIMITS.endUserIdMaxChars} characters of letters, digits and . _ @ : + -`);
  }
  return raw;
}

/**
 * An id a request names (a job, memory, webhook or delivery), checked before it reaches a store: a store may refuse
 * a long or odd id as a failure of its own (Elasticsearch limits ids to 512 bytes, a file name to 255), which would
 * answer 5xx for what is the caller's mistake. `name` is the path or query parameter.
 */
export function validateId(raw: unknown, name: string): string {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > REQUEST_LIMITS.idMaxChars || !ID_PATTERN.test(raw)) {
    throw new RequestError(400, 'REQUEST.INVALID_ID', `${name} must be an id of 1-${REQUEST_LIMITS.idMaxChars} characters of letters, digits and . _ @ : + -`);
  }
  return raw;
}

export function validateTimeZone(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null;
  if (isValidTimeZone(raw)) return raw;
  throw new RequestError(400, 'REQUEST.INVALID_TIMEZONE', `x-end-user-timezone "${raw}" is not an IANA time zone (for example Europe/Berlin)`);
}

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

export function validateTextIngest(body: unknown) {
  const root = objectOf(body, 'body');
  const source = objectOf(root['source'], 'source');
  if (source['type'] !== 'text') {
    throw new RequestError(400, 'INGEST.INVALID_SOURCE_TYPE', 'source.type must be "text" on this endpoint (images go to /v1/memory/image, PDFs to /v1/ingest/document/upload)');
  }
  const content = source['content'];
  const sourceTimestamp = optionalTimestamp(source['timestamp'], 'source.timestamp');
  const userContext = optionalString(root['userContext'], 'userContext', REQUEST_LIMITS.userContextMaxChars);
  return { content: checkContent(content, 'source.content'), sourceTimestamp, userContext, metadata: validateMetadata(root['metadata']) };
}

function checkContent(content: unknown, name: string): string {
  if (typeof content !== 'string' || content.trim() === '') {
    throw new RequestError(400, 'INGEST.MISSING_CONTENT', `${name} must be a non-empty string`);
  }
  if (content.length > REQUEST_LIMITS.textMaxChars) {
    throw new RequestError(413, 'INGEST.TOO_LARGE', `${name} has ${content.length} characters; the limit is ${REQUEST_LIMITS.textMaxChars}: split it into several memories`);
  }
  return content;
}

function optionalTimestamp(ts: unknown, name: string): number | null {
  if (ts === undefined || ts === null) return null;
  if (typeof ts !== 'string' || !ISO_8601.test(ts) || Number.isNaN(Date.parse(ts))) {
    throw new RequestError(400, 'INGEST.INVALID_TIMESTAMP', `${name} must be an ISO 8601 date or date-time, e.g. 2023-05-08T13:56:00Z`);
  }
  return Date.parse(ts);
}

const UPDATE_FIELDS = ['content', 'userContext', 'metadata', 'timestamp'];

/**
 * PATCH /v1/memories/{id}: the fields of a text memory to change, each validated as ingestion validates it. A field
 * left out is kept; `userContext` or `metadata` sent as null (or "" / {}) is cleared. `timestamp` only moves the
 * reference time relative dates resolve against (and created_at); it is not a change by itself.
 */
export function validateUpdate(body: unknown) {
  const root = objectOf(body, 'body');
  const unknown = Object.keys(root).filter((key) => !UPDATE_FIELDS.includes(key));
  if (unknown.length > 0) {
    throw new RequestError(400, 'UPDATE.UNKNOWN_FIELD', `unknown field(s) ${unknown.join(', ')}: a PATCH takes ${UPDATE_FIELDS.join(', ')}`, { allowed: UPDATE_FIELDS });
  }
  if (root['content'] === undefined && root['userContext'] === undefined && root['metadata'] === undefined) {
    throw new RequestError(400, 'UPDATE.NOTHING_TO_CHANGE', 'send at least one of content, userContext, metadata');
  }
  return {
    content: root['content'] === undefined ? undefined : checkContent(root['content'], 'content'),
    userContext: root['userContext'] === undefined ? undefined : optionalString(root['userContext'], 'userContext', REQUEST_LIMITS.userContextMaxChars),
    metadata: root['metadata'] === undefined ? undefined : validateMetadata(root['metadata']),
    timestamp: optionalTimestamp(root['timestamp'], 'timestamp'),
  };
}

export type UpdateRequest = ReturnType<typeof validateUpdate>;

export type TextIngestRequest = ReturnType<typeof validateTextIngest>;

/** POST /v1/search with queryImage (base64, a data: URL prefix accepted) instead of query. */
export function validateImageSearch(body: unknown) {
  const root = objectOf(body, 'body');
  const options = root['options'] === undefined ? {} : objectOf(root['options'], 'options');
  const filter = parseSearchFilters(root['filters']);
  return { image: decodeImageData(root['queryImage'], 'queryImage'), limit: searchLimit(options), ...(filter ? { filter } : {}) };
}


function optionalString(value: unknown, name: string, maxChars: number): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new RequestError(400, 'REQUEST.INVALID_FIELD', `${name} must be a string`);
  if (value.length > maxChars) throw new RequestError(413, 'INGEST.TOO_LARGE', `${name} has ${value.length} characters; the limit is ${maxChars}`);
  return value === '' ? null : value;
}

const DATA_URL_PREFIX = /^data:([a-z]+\/[a-z0-9.+-]+)?(;[a-z0-9=.+-]+)*;base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * An image sent as base64, with or without a data: URL prefix. Only the encoding is checked here; whether the
 * bytes are an image we accept is the image library's call (inspectImage).
 */
export function decodeImageData(raw: unknown, field: string): Buffer {
  if (typeof raw !== 'string' || raw.trim() === '') {
    throw new RequestError(400, 'IMAGE.MISSING_DATA', `${field} must be a non-empty base64 string (a data: URL prefix is accepted)`);
  }
  const base64 = raw.replace(DATA_URL_PREFIX, '').replace(/\s+/g, '');
  if (base64.length % 4 === 1 || !BASE64.test(base64)) {
    throw new RequestError(400, 'IMAGE.INVALID_BASE64', `${field} is not valid base64: send the image bytes base64-encoded (standard alphabet, optional padding)`);
  }
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0) throw new RequestError(400, 'IMAGE.MISSING_DATA', `${field} decodes to no bytes`);
  return bytes;
}

export function validateImageIngest(body: unknown) {
  const root = objectOf(body, 'body');
  const image = decodeImageData(root['imageData'], 'imageData');
  const userContext = optionalString(root['userContext'], 'userContext', REQUEST_LIMITS.userContextMaxChars);
  return { image, userContext, metadata: validateMetadata(root['metadata']) };
}

export type ImageIngestRequest = ReturnType<typeof validateImageIngest>;
