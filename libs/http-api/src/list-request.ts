import { RequestError } from '@memory/platform';
import { isMetadataKey, type ListPosition, type ListQuery, type MemoryFilter, type TimeRange } from '@memory/ports';
import { INSTANT_FORMS, instantFrom, rangeBetween } from '@memory/search';
import { REQUEST_LIMITS } from './limits.js';

const LIMITS = REQUEST_LIMITS.list;
const METADATA_PREFIX = 'metadata.';
const PARAMETERS = new Set(['limit', 'cursor', 'memory_type', 'created_after', 'created_before', 'event_after', 'event_before', 'job_id']);

const invalidFilter = (message: string) => new RequestError(400, 'LIST.INVALID_FILTER', message);

/**
 * The cursor of the page after one ending with `last`: its position (creation time and id) as base64url JSON. A
 * position, not an offset, so the next page starts right after that memory whatever was written or deleted since.
 */
export function encodeCursor(last: ListPosition): string {
  return Buffer.from(JSON.stringify([last.createdAt, last.id])).toString('base64url');
}

export function decodeCursor(cursor: string): ListPosition {
  const malformed = () => new RequestError(400, 'LIST.INVALID_CURSOR', 'cursor is not one this API gave: pass nextCursor of the previous page unchanged, or leave it out for the first page');
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw malformed();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw malformed();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw malformed();
  const [createdAt, id] = parsed as unknown[];
  if (typeof createdAt !== 'number' || !Number.isFinite(createdAt) || typeof id !== 'string' || id === '') throw malformed();
  return { createdAt, id };
}

/** An instant given as epoch milliseconds or ISO 8601, read as search filters read it (instantFrom). */
export function parseInstant(name: string, raw: string): number {
  const time = instantFrom(raw);
  if (time === null) throw invalidFilter(`${name} must be ${INSTANT_FORMS}`);
  return time;
}

/** [after, before) from two optional parameters; undefined when neither is given. */
function rangeOf(query: Record<string, string>, prefix: 'created' | 'event'): TimeRange | undefined {
  const instant = (name: string) => (query[name] === undefined ? undefined : parseInstant(name, query[name]));
  const range = rangeBetween(instant(`${prefix}_after`), instant(`${prefix}_before`));
  if (range === null) throw invalidFilter(`${prefix}_after must be earlier than ${prefix}_before`);
  return range;
}

/**
 * The query parameters of GET /v1/memories as a store query. Every parameter is single-valued, and an unknown one is
 * refused, so a misspelt filter is an error rather than a listing of everything. Metadata values compare as text:
 * metadata.priority=2 matches the number 2, metadata.pinned=true the boolean true.
 */
export function validateListRequest(raw: Record<string, unknown>): ListQuery {
  const query: Record<string, string> = {};
  const metadata: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (typeof value !== 'string') throw new RequestError(400, 'LIST.INVALID_PARAMETER', `${name} is given more than once; send each query parameter once`);
    if (name.startsWith(METADATA_PREFIX)) {
      const key = name.slice(METADATA_PREFIX.length);
      if (!isMetadataKey(key)) throw invalidFilter(`${name}: a metadata key is 1-64 characters of letters, digits, _ and - (not __proto__)`);
      if (value.length > REQUEST_LIMITS.metadata.maxStringChars) throw invalidFilter(`${name}: a metadata value is at most ${REQUEST_LIMITS.metadata.maxStringChars} characters`);
      metadata[key] = [value];
    } else if (PARAMETERS.has(name)) {
      query[name] = value;
    } else {
      throw new RequestError(400, 'LIST.UNKNOWN_PARAMETER', `unknown query parameter ${name}: use limit, cursor, memory_type, created_after, created_before, event_after, event_before, job_id or metadata.<key>`);
    }
  }
  if (Object.keys(metadata).length > REQUEST_LIMITS.metadata.maxKeys) throw invalidFilter(`at most ${REQUEST_LIMITS.metadata.maxKeys} metadata filters`);

  let limit: number = LIMITS.defaultLimit;
  if (query['limit'] !== undefined) {
    limit = /^\d{1,3}$/.test(query['limit']) ? Number(query['limit']) : 0;
    if (limit < 1 || limit > LIMITS.maxLimit) throw new RequestError(400, 'LIST.INVALID_LIMIT', `limit must be a whole number from 1 to ${LIMITS.maxLimit} (default ${LIMITS.defaultLimit})`);
  }

  const filter: MemoryFilter = {};
  if (query['memory_type'] !== undefined) {
    const types = [...new Set(query['memory_type'].split(',').map((type) => type.trim()))];
    if (types.some((type) => type === '') || types.length > LIMITS.maxMemoryTypes) {
      throw invalidFilter(`memory_type is one memory type or up to ${LIMITS.maxMemoryTypes} separated by commas, e.g. memory_type=fact,plan`);
    }
    filter.memoryTypes = types;
  }
  const created = rangeOf(query, 'created');
  if (created) filter.created = created;
  const events = rangeOf(query, 'event');
  if (events) filter.events = events;
  if (query['job_id'] !== undefined) {
    if (query['job_id'] === '' || query['job_id'].length > LIMITS.maxJobIdChars) throw invalidFilter(`job_id must be a job id of 1-${LIMITS.maxJobIdChars} characters`);
    filter.jobIds = [query['job_id']];
  }
  if (Object.keys(metadata).length > 0) filter.metadata = metadata;

  return {
    limit,
    ...(query['cursor'] === undefined ? {} : { after: decodeCursor(query['cursor']) }),
    ...(Object.keys(filter).length > 0 ? { filter } : {}),
  };
}
