import { MemoryServiceError } from '@memory/platform';
import { checkFilter, checkNearQuery as checkNearFields, type MemoryRecord, type NearQuery, type Scope, type TextQuery, type VectorQuery } from '@memory/ports';

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

function invalid(code: string, message: string): never {
  throw new MemoryServiceError(code, message);
}

export function checkScope(scope: Scope): void {
  if (!nonEmpty(scope?.tenantId) || !nonEmpty(scope?.endUserId)) {
    invalid('VECTORS.INVALID_SCOPE', 'a scope needs a non-empty tenantId and endUserId');
  }
}

export function checkIds(ids: string[]): string[] {
  if (!Array.isArray(ids) || !ids.every(nonEmpty)) invalid('VECTORS.INVALID_ID', 'memory ids must be non-empty strings');
  return [...new Set(ids)];
}

function finiteVector(vector: unknown): vector is Float32Array {
  if (!(vector instanceof Float32Array) || vector.length === 0) return false;
  for (let i = 0; i < vector.length; i++) if (!Number.isFinite(vector[i])) return false;
  return true;
}

export function checkRecord(record: MemoryRecord): void {
  const where = `memory ${JSON.stringify(record?.id)}`;
  if (!nonEmpty(record?.id)) invalid('VECTORS.INVALID_RECORD', 'a memory needs a non-empty id');
  if (!nonEmpty(record.tenantId) || !nonEmpty(record.endUserId)) invalid('VECTORS.INVALID_RECORD', `${where} needs a tenantId and endUserId`);
  if (!finiteVector(record.vector)) invalid('VECTORS.INVALID_RECORD', `${where} needs a non-empty Float32Array vector of finite numbers`);
  if (!Number.isFinite(record.createdAt)) invalid('VECTORS.INVALID_RECORD', `${where} needs a finite createdAt`);
  const times = record.eventTimes;
  if (!Array.isArray(times) || !times.every((t) => Number.isFinite(t?.start) && Number.isFinite(t?.end))) {
    invalid('VECTORS.INVALID_RECORD', `${where} has event times without finite start and end`);
  }
}

export function checkQuery(query: VectorQuery): void {
  if (!finiteVector(query?.vector)) invalid('VECTORS.INVALID_QUERY', 'a query needs a non-empty Float32Array vector of finite numbers');
  checkLimit(query.k);
  if (query.timeRange !== undefined) checkRange(query.timeRange);
  checkFilter(query.filter);
}

export function checkTextQuery(query: TextQuery): void {
  if (!Array.isArray(query?.terms) || query.terms.some((t) => typeof t !== 'string')) invalid('VECTORS.INVALID_QUERY', 'a text query needs terms: an array of strings');
  checkLimit(query.k);
  if (query.timeRange !== undefined) checkRange(query.timeRange);
  checkFilter(query.filter);
}

export function checkLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 0) invalid('VECTORS.INVALID_QUERY', `k must be a whole number >= 0, got ${String(limit)}`);
}

export function checkNearQuery(query: NearQuery): void {
  checkNearFields(query);
  if (!finiteVector(query.vector)) invalid('VECTORS.INVALID_QUERY', 'a query needs a non-empty Float32Array vector of finite numbers');
}

export function checkRange(range: { from: number; to: number }): void {
  if (typeof range?.from !== 'number' || typeof range.to !== 'number' || Number.isNaN(range.from) || Number.isNaN(range.to)) {
    invalid('VECTORS.INVALID_QUERY', 'timeRange needs numeric from and to');
  }
}

export function dimensionMismatch(scope: Scope, expected: number, got: number): MemoryServiceError {
  return new MemoryServiceError(
    'VECTORS.DIMENSION_MISMATCH',
    `end user ${scope.tenantId}/${scope.endUserId} holds ${expected}-dimensional vectors, got ${got}: a new embedding model needs a new store (replay into a fresh directory)`,
    { details: { expected, got } },
  );
}
