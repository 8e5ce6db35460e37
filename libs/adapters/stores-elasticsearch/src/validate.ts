import { MemoryServiceError } from '@memory/platform';
import { checkFilter, checkNearQuery as checkNearFields, type MemoryRecord, type NearQuery, type Scope, type TextQuery, type VectorQuery } from '@memory/ports';

// The same codes as the embedded adapters, so a caller handles a bad argument alike whichever store it talks to.

const text = (value: unknown): value is string => typeof value === 'string' && value !== '';

function reject(code: string, message: string, details?: Record<string, unknown>): never {
  throw new MemoryServiceError(code, message, details ? { details } : {});
}

export function checkScope(scope: Scope): void {
  if (!text(scope?.tenantId) || !text(scope?.endUserId)) reject('VECTORS.INVALID_SCOPE', 'a scope needs a non-empty tenantId and endUserId');
}

/** The ids without repeats, in the order first given. */
export function checkIds(ids: string[]): string[] {
  if (!Array.isArray(ids) || !ids.every(text)) reject('VECTORS.INVALID_ID', 'memory ids must be non-empty strings');
  return [...new Set(ids)];
}

function checkVector(vector: unknown, dims: number, code: string, what: string): void {
  if (!(vector instanceof Float32Array)) reject(code, `${what} needs a Float32Array vector`);
  if (vector.length !== dims) {
    reject('VECTORS.DIMENSION_MISMATCH', `${what} has ${vector.length} dimensions, the index holds ${dims}: a new embedding model needs new indices (another prefix)`, {
      expected: dims,
      got: vector.length,
    });
  }
  let squares = 0;
  for (const value of vector) {
    if (!Number.isFinite(value)) reject(code, `${what} has a vector with a value that is not a finite number`);
    squares += value * value;
  }
  // Cosine similarity is undefined for the zero vector; Elasticsearch refuses to index or search with one.
  if (squares === 0) reject(code, `${what} has a zero vector, which has no direction to compare by cosine`);
}

export function checkRecord(record: MemoryRecord, dims: number): void {
  const what = `memory ${JSON.stringify(record?.id)}`;
  if (!text(record?.id)) reject('VECTORS.INVALID_RECORD', 'a memory needs a non-empty id');
  if (!text(record.tenantId) || !text(record.endUserId)) reject('VECTORS.INVALID_RECORD', `${what} needs a tenantId and endUserId`);
  checkVector(record.vector, dims, 'VECTORS.INVALID_RECORD', what);
  if (!Number.isFinite(record.createdAt)) reject('VECTORS.INVALID_RECORD', `${what} needs a finite createdAt`);
  const times = record.eventTimes;
  if (!Array.isArray(times) || !times.every((time) => Number.isFinite(time?.start) && Number.isFinite(time?.end))) {
    reject('VECTORS.INVALID_RECORD', `${what} has event times without finite start and end`);
  }
}

export function checkQuery(query: VectorQuery, dims: number): void {
  checkLimit(query?.k, 'k');
  checkVector(query.vector, dims, 'VECTORS.INVALID_QUERY', 'a query');
  if (query.timeRange !== undefined) checkTimeRange(query.timeRange);
  checkFilter(query.filter);
}

export function checkTimeRange(range: { from: number; to: number }): void {
  if (typeof range?.from !== 'number' || typeof range.to !== 'number' || Number.isNaN(range.from) || Number.isNaN(range.to)) {
    reject('VECTORS.INVALID_QUERY', 'a time range needs numeric from and to');
  }
}

export function checkNearQuery(query: NearQuery, dims: number): void {
  checkNearFields(query);
  checkVector(query.vector, dims, 'VECTORS.INVALID_QUERY', 'a query');
}

export function checkLimit(limit: number, what = 'limit'): void {
  if (!Number.isInteger(limit) || limit < 0) reject('VECTORS.INVALID_QUERY', `${what} must be a whole number >= 0, got ${String(limit)}`);
}

export function checkTextQuery(query: TextQuery): void {
  checkLimit(query?.k, 'k');
  if (!Array.isArray(query.terms) || !query.terms.every((term) => typeof term === 'string')) reject('VECTORS.INVALID_QUERY', 'terms must be an array of strings');
  if (query.timeRange !== undefined) checkTimeRange(query.timeRange);
  checkFilter(query.filter);
}

export function checkIdentifiers(identifiers: string[]): void {
  if (!Array.isArray(identifiers) || !identifiers.every((identifier) => typeof identifier === 'string')) {
    reject('VECTORS.INVALID_QUERY', 'identifiers must be an array of strings');
  }
}

export function checkJobKey(tenantId: string, jobId: string): void {
  if (!text(tenantId) || !text(jobId)) reject('JOBS.INVALID_ARGUMENT', 'a job is addressed by a non-empty tenantId and jobId');
}
