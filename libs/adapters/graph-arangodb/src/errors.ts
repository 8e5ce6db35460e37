import { isArangoError, isNetworkError, HttpError } from 'arangojs/errors';
import { MemoryServiceError } from '@memory/platform';

/**
 * ArangoDB error numbers by what a caller can do about them (numbers from the ArangoDB 3.12 error list).
 * Retriable: the same request can succeed later. Everything else says what must change first.
 */
const CONFLICT = new Set([
  1200, // ERROR_ARANGO_CONFLICT: write-write conflict with a concurrent writer of the same document
  1202, // ERROR_ARANGO_DOCUMENT_NOT_FOUND: a concurrent delete removed a document between read and remove
  1210, // ERROR_ARANGO_UNIQUE_CONSTRAINT_VIOLATED: a concurrent insert of the same key
]);
const UNAVAILABLE = new Set([
  18, // ERROR_LOCK_TIMEOUT
  21, // ERROR_REQUEST_CANCELED
  28, // ERROR_LOCKED
  29, // ERROR_DEADLOCK
  30, // ERROR_SHUTTING_DOWN
  38, // ERROR_STARTING_UP
  503, // ERROR_HTTP_SERVICE_UNAVAILABLE / maintenance mode
  1302, // ERROR_ARANGO_TRY_AGAIN
  1303, // ERROR_ARANGO_BUSY
  1429, // ERROR_REPLICATION_WRITE_CONCERN_NOT_FULFILLED
  1457, // ERROR_CLUSTER_TIMEOUT
  1465, // ERROR_CLUSTER_CONNECTION_LOST
  1478, // ERROR_CLUSTER_BACKEND_UNAVAILABLE
  1491, // ERROR_CLUSTER_SHARD_LEADER_RESIGNED
  1495, // ERROR_CLUSTER_LEADERSHIP_CHALLENGE_ONGOING
  1496, // ERROR_CLUSTER_NOT_LEADER
  1500, // ERROR_QUERY_KILLED (also a query past its maxRuntime)
  21003, // ERROR_QUEUE_FULL
]);
const NO_ACCESS = new Set([11 /* ERROR_FORBIDDEN */, 401, 403]);
const DISK_FULL = new Set([1104 /* ERROR_ARANGO_FILESYSTEM_FULL */, 7004 /* ERROR_NO_SPACE_LEFT_ON_DEVICE */]);
const NOT_PROVISIONED = new Set([
  1228, // ERROR_ARANGO_DATABASE_NOT_FOUND
  1203, // ERROR_ARANGO_DATA_SOURCE_NOT_FOUND (collection dropped under a running store)
  1924, // ERROR_GRAPH_NOT_FOUND
]);
const CORRUPT = new Set([1100, 1102, 1941]);
const RETRIABLE_HTTP = new Set([408, 420, 429, 500, 502, 503, 504]);

function isNodeSystemError(error: unknown): boolean {
  const code = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^E[A-Z0-9_]+$/.test(code);
}

/** AQL errors (1501-1599) mean the query itself is wrong: a bug here, not a state of the server. */
const isQueryError = (errorNum: number) => errorNum > 1500 && errorNum < 1600;

/**
 * Any failure of an ArangoDB call as a MemoryServiceError with a GRAPH.* code. Connection failures, 503s and
 * write-write conflicts are retriable (the store's writes are idempotent, so retrying a whole call is safe).
 */
export function graphError(operation: string, cause: unknown): MemoryServiceError {
  if (cause instanceof MemoryServiceError) return cause;
  const reason = cause instanceof Error ? cause.message : String(cause);
  const make = (code: string, retriable: boolean, details?: Record<string, unknown>) =>
    new MemoryServiceError(code, `graph store ${operation} failed: ${reason}`, { retriable, cause, ...(details ? { details } : {}) });

  if (isArangoError(cause)) {
    const { errorNum } = cause;
    const status = cause.code;
    const details = { errorNum, ...(status === undefined ? {} : { status }) };
    if (CONFLICT.has(errorNum)) return make('GRAPH.CONFLICT', true, details);
    if (NO_ACCESS.has(errorNum) || status === 401 || status === 403) return make('GRAPH.NO_ACCESS', false, details);
    if (DISK_FULL.has(errorNum)) return make('GRAPH.DISK_FULL', false, details);
    if (NOT_PROVISIONED.has(errorNum)) return make('GRAPH.NOT_PROVISIONED', false, details);
    if (CORRUPT.has(errorNum)) return make('GRAPH.CORRUPT', false, details);
    if (UNAVAILABLE.has(errorNum) || (status !== undefined && RETRIABLE_HTTP.has(status))) return make('GRAPH.UNAVAILABLE', true, details);
    if (isQueryError(errorNum)) return make('GRAPH.QUERY', false, details);
    if (status !== undefined && status >= 400 && status < 500) return make('GRAPH.REJECTED', false, details);
    return make('GRAPH.STORAGE', true, details);
  }
  // HttpError: an HTTP error without an ArangoDB error body (a proxy, or not an ArangoDB at all).
  if (cause instanceof HttpError) {
    const status = cause.code;
    if (status === 401 || status === 403) return make('GRAPH.NO_ACCESS', false, { status });
    if (RETRIABLE_HTTP.has(status)) return make('GRAPH.UNAVAILABLE', true, { status });
    return make('GRAPH.REJECTED', false, { status });
  }
  // Refused or reset connections, DNS failures, timeouts, aborted requests (arangojs wraps fetch failures in
  // NetworkError; a bare Node system error, code ECONNREFUSED and the like, is the same thing unwrapped).
  if (isNetworkError(cause) || isNodeSystemError(cause)) return make('GRAPH.UNAVAILABLE', true);
  return make('GRAPH.STORAGE', true);
}
