/**
 * One error base for the whole service. `code` is stable and travels across process boundaries (HTTP bodies,
 * dead letters, job records), where `instanceof` does not survive; `retriable` tells retry loops whether
 * trying again can help.
 */
export class MemoryServiceError extends Error {
  readonly code: string;
  readonly retriable: boolean;
  readonly details?: Record<string, unknown>;

  constructor(code: string, message: string, opts: { retriable?: boolean; details?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'MemoryServiceError';
    this.code = code;
    this.retriable = opts.retriable ?? false;
    if (opts.details) this.details = opts.details;
  }
}

/** A request the caller must change before sending again; `status` is the HTTP status it maps to. */
export class RequestError extends MemoryServiceError {
  readonly status: number;
  constructor(status: number, code: string, message: string, details?: Record<string, unknown>) {
    // The caller's mistake, answered by its code: where our code noticed it helps no one, and capturing the stack was
    // the largest single cost of answering a refused request.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(code, message, details ? { details } : {});
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
    this.name = 'RequestError';
    this.status = status;
  }
}

/** A JSON body or field that must be an object; 400 REQUEST.INVALID_BODY otherwise. */
export function objectOf(value: unknown, name: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new RequestError(400, 'REQUEST.INVALID_BODY', `${name} must be a JSON object`);
  return value as Record<string, unknown>;
}

export class ConfigError extends MemoryServiceError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('CONFIG.INVALID', message, details ? { details } : {});
    this.name = 'ConfigError';
  }
}

export function isRetriable(error: unknown): boolean {
  if (error instanceof MemoryServiceError) return error.retriable;
  // Unknown failures (I/O hiccups, engine timeouts) get the benefit of the doubt.
  return true;
}

/** The code families of the adapters of engines (stores, log, registry, blobs, graph, a remote embedder). */
const ENGINE_FAMILIES = new Set(['VECTORS', 'JOBS', 'IDEMPOTENCY', 'KEYS', 'WEBHOOK', 'EVENTLOG', 'REGISTRY', 'BLOB', 'GRAPH', 'EMBEDDER']);

/**
 * An engine that does not answer (an engine adapter's retriable `<FAMILY>.UNAVAILABLE`), has no room left to write
 * (`<FAMILY>.DISK_FULL`, lasting or not) or refuses the service's credentials (`<FAMILY>.UNAUTHORIZED`: a rotated
 * key, a changed role), seen directly or as the last error of a retry loop: the record or request is not at fault,
 * and trying again once the engine is back, space is freed or the credentials are mended, will do. Not the blob
 * store's refusals: an object can be refused alone (a retention lock, a policy on a prefix), and a forget of it must
 * fail, not hold every forget behind it. A file worker that cannot start (FILES.UNAVAILABLE) is not an engine: what
 * waits for it fails instead.
 */
export function isEngineOutage(error: unknown): boolean {
  const cause = error instanceof Error && error.name === 'RetriesExhaustedError' ? error.cause : error;
  if (!(cause instanceof MemoryServiceError)) return false;
  const [family, kind] = cause.code.split('.');
  if (!ENGINE_FAMILIES.has(family ?? '')) return false;
  return kind === 'DISK_FULL' || (kind === 'UNAUTHORIZED' && family !== 'BLOB') || (kind === 'UNAVAILABLE' && cause.retriable);
}

export function errorCode(error: unknown): string {
  if (error instanceof MemoryServiceError) return error.code;
  return 'INTERNAL.UNEXPECTED';
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** An error as it crosses a thread or process boundary, where its class does not survive. */
export interface ErrorRecord {
  code: string;
  message: string;
  retriable: boolean;
  /** Set for a RequestError: the HTTP status it maps to. */
  status?: number;
  details?: Record<string, unknown>;
}

/** `fallbackCode` names what failed when the error is not one of ours (a library's TypeError, say). */
export function toErrorRecord(error: unknown, fallbackCode: string): ErrorRecord {
  if (error instanceof MemoryServiceError) {
    return {
      code: error.code,
      message: error.message,
      retriable: error.retriable,
      ...(error instanceof RequestError ? { status: error.status } : {}),
      ...(error.details ? { details: error.details } : {}),
    };
  }
  return { code: fallbackCode, message: errorMessage(error), retriable: true };
}

/** The error again on this side: a RequestError when it carried a status, so the edge still answers with it. */
export function fromErrorRecord(record: ErrorRecord): MemoryServiceError {
  if (record.status !== undefined) return new RequestError(record.status, record.code, record.message, record.details);
  return new MemoryServiceError(record.code, record.message, { retriable: record.retriable, ...(record.details ? { details: record.details } : {}) });
}

/** The limit a file passed while a file worker read it: CPU time, memory, or the worker died on it. */
export type LimitPassed = { kind: 'time'; ms: number } | { kind: 'memory'; mb: number } | { kind: 'crash'; signal: string | null };

/** "more than 3.0 s of processing", for the message of the file's TOO_COMPLEX error. */
export function describeLimitPassed(limit: LimitPassed): string {
  if (limit.kind === 'time') return `more than ${(limit.ms / 1000).toFixed(1)} s of processing`;
  if (limit.kind === 'memory') return `more than ${limit.mb} MB of memory`;
  return 'more than its reader could handle (the reader stopped on it)';
}
