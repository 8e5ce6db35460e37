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
    super(code, message, details ? { details } : {});
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

export function errorCode(error: unknown): string {
  if (error instanceof MemoryServiceError) return error.code;
  return 'INTERNAL.UNEXPECTED';
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
