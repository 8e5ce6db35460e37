import { RequestError } from '@memory/platform';
import { isMetadataKey, METADATA_LIMITS, metadataValueText, type MemoryFilter, type TimeRange } from '@memory/ports';

/** Bounds of a `filters` object (README, Limits), so one request cannot make a filter that costs more than a search. */
export const FILTER_LIMITS = {
  maxMemoryTypes: 20,
  maxJobIds: 100,
  maxJobIdChars: 256,
  /** Accepted values of one metadata key (`{"in": [...]}`). */
  maxMetadataValues: 100,
  /** Alternatives of one `any`. */
  maxAlternatives: 10,
  /** `any` and `not` inside each other, counting the top level as 1. */
  maxDepth: 3,
} as const;

const FIELDS = ['memory_type', 'created_after', 'created_before', 'event_after', 'event_before', 'job_id', 'metadata', 'any', 'not'] as const;

const invalid = (message: string) => new RequestError(400, 'FILTER.INVALID', message);

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * An instant given as epoch milliseconds (a whole number, or its digits) or ISO 8601 (a date-time without an
 * offset, or a date, is UTC); null when it is neither. The one reading of instants for every filter.
 */
export function instantFrom(raw: string | number): number | null {
  if (typeof raw === 'number') return Number.isSafeInteger(raw) ? raw : null;
  let time = Number.NaN;
  if (/^-?\d{1,16}$/.test(raw)) time = Number(raw);
  else {
    const iso = ISO_8601.exec(raw);
    if (iso) time = Date.parse(raw.includes('T') && iso[1] === undefined ? `${raw}Z` : raw);
  }
  return Number.isFinite(time) ? time : null;
}

/** What instantFrom accepts, said the same way by every filter that refuses an instant. */
export const INSTANT_FORMS = 'an ISO 8601 date or date-time (e.g. 2024-03-01 or 2024-03-01T09:30:00Z) or epoch milliseconds';

/**
 * [after, before) from two optional instants already read, infinite where one is absent; undefined when neither is
 * given, null when after is not earlier than before.
 */
export function rangeBetween(after: number | undefined, before: number | undefined): TimeRange | null | undefined {
  if (after === undefined && before === undefined) return undefined;
  const range = { from: after ?? -Infinity, to: before ?? Infinity };
  return range.from < range.to ? range : null;
}

/**
 * The `filters` object of POST /v1/search and POST /v1/memories/search as a store filter (undefined when absent,
 * null or {}). Every field narrows the search (AND); `any` holds alternatives (OR) and `not` one filter to exclude.
 * Unknown fields are refused (`FILTER.UNKNOWN_FIELD`), so a misspelt filter never searches everything; any other
 * mistake is `FILTER.INVALID` with what to fix.
 */
export function parseSearchFilters(raw: unknown): MemoryFilter | undefined {
  if (raw === undefined || raw === null) return undefined;
  const filter = parseFilter(raw, 'filters', 1);
  return Object.keys(filter).length > 0 ? filter : undefined;
}

function parseFilter(raw: unknown, path: string, depth: number): MemoryFilter {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw invalid(`${path} must be an object, e.g. {"memory_type":"fact","metadata":{"project":"apollo"}}`);
  }
  const fields = raw as Record<string, unknown>;
  for (const name of Object.keys(fields)) {
    if (!(FIELDS as readonly string[]).includes(name)) {
      throw new RequestError(400, 'FILTER.UNKNOWN_FIELD', `${path}.${name} is not a filter: use ${FIELDS.join(', ')}`, { allowed: [...FIELDS] });
    }
  }
  const filter: MemoryFilter = {};
  const memoryTypes = stringsOf(fields['memory_type'], `${path}.memory_type`, FILTER_LIMITS.maxMemoryTypes, 64);
  if (memoryTypes) filter.memoryTypes = memoryTypes;
  const jobIds = stringsOf(fields['job_id'], `${path}.job_id`, FILTER_LIMITS.maxJobIds, FILTER_LIMITS.maxJobIdChars);
  if (jobIds) filter.jobIds = jobIds;
  const created = rangeOf(fields, path, 'created');
  if (created) filter.created = created;
  const events = rangeOf(fields, path, 'event');
  if (events) filter.events = events;
  const metadata = metadataOf(fields['metadata'], `${path}.metadata`);
  if (metadata) filter.metadata = metadata;
  if (fields['any'] !== undefined || fields['not'] !== undefined) {
    if (depth >= FILTER_LIMITS.maxDepth) throw invalid(`${path}: any and not nest at most ${FILTER_LIMITS.maxDepth} levels deep`);
  }
  if (fields['any'] !== undefined) {
    const any = fields['any'];
    if (!Array.isArray(any) || any.length === 0 || any.length > FILTER_LIMITS.maxAlternatives) {
      throw invalid(`${path}.any must be an array of 1-${FILTER_LIMITS.maxAlternatives} filters, any of which may hold`);
    }
    filter.any = any.map((alternative, at) => parseFilter(alternative, `${path}.any[${at}]`, depth + 1));
  }
  if (fields['not'] !== undefined) filter.not = parseFilter(fields['not'], `${path}.not`, depth + 1);
  return filter;
}

/** One string or an array of them (any of them), each 1-maxChars characters; repeats dropped. */
function stringsOf(raw: unknown, path: string, maxValues: number, maxChars: number): string[] | undefined {
  if (raw === undefined) return undefined;
  const values = typeof raw === 'string' ? [raw] : raw;
  const valid = Array.isArray(values) && values.length >= 1 && values.length <= maxValues && values.every((value) => typeof value === 'string' && value !== '' && value.length <= maxChars);
  if (!valid) throw invalid(`${path} must be a string or an array of 1-${maxValues} strings of 1-${maxChars} characters (any of them)`);
  return [...new Set(values as string[])];
}

function rangeOf(fields: Record<string, unknown>, path: string, prefix: 'created' | 'event'): TimeRange | undefined {
  const instant = (name: string): number | undefined => {
    const raw = fields[name];
    if (raw === undefined) return undefined;
    const time = typeof raw === 'string' || typeof raw === 'number' ? instantFrom(raw) : null;
    if (time === null) throw invalid(`${path}.${name} must be ${INSTANT_FORMS}`);
    return time;
  };
  const range = rangeBetween(instant(`${prefix}_after`), instant(`${prefix}_before`));
  if (range === null) throw invalid(`${path}.${prefix}_after must be earlier than ${path}.${prefix}_before`);
  return range;
}

/** Each key to the texts its stored value may have: a value is equality, {"in": [...]} any of several. */
function metadataOf(raw: unknown, path: string): Record<string, string[]> | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid(`${path} must be an object of keys to a value or {"in": [values]}, e.g. {"project":"apollo"}`);
  const entries = Object.entries(raw);
  if (entries.length === 0 || entries.length > METADATA_LIMITS.maxKeys) throw invalid(`${path} must hold 1-${METADATA_LIMITS.maxKeys} keys`);
  const texts: Record<string, string[]> = {};
  for (const [key, condition] of entries) {
    if (!isMetadataKey(key)) throw invalid(`${path}: key ${JSON.stringify(key)} is not a metadata key (1-64 characters of letters, digits, _ and -, not __proto__)`);
    const isIn = typeof condition === 'object' && condition !== null && !Array.isArray(condition);
    if (isIn && (Object.keys(condition).length !== 1 || !Array.isArray((condition as { in?: unknown }).in))) {
      throw invalid(`${path}.${key} must be a value or {"in": [values]}`);
    }
    const values: unknown[] = isIn ? (condition as { in: unknown[] }).in : [condition];
    if (values.length === 0 || values.length > FILTER_LIMITS.maxMetadataValues) throw invalid(`${path}.${key}.in must hold 1-${FILTER_LIMITS.maxMetadataValues} values`);
    texts[key] = [...new Set(values.map((value) => metadataText(value, `${path}.${key}`)))];
  }
  return texts;
}

/** A metadata value as the filter compares it (its string form, metadataValueText); the values ingestion accepts. */
function metadataText(value: unknown, path: string): string {
  const accepted =
    (typeof value === 'string' && value.length <= METADATA_LIMITS.maxStringChars) || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
  if (!accepted) throw invalid(`${path}: a metadata value is a string of at most ${METADATA_LIMITS.maxStringChars} characters, a finite number or a boolean`);
  return metadataValueText(value as string | number | boolean);
}
