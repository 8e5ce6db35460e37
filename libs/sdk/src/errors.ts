import { parseJson } from './json.js';
import type { ErrorBody, Job } from './types.js';

/**
 * Every error the SDK throws (except an AbortSignal's own reason): the service's stable `code` to branch on, the
 * HTTP `status` (null when no answer came), the message, the error body's `details`, the answer's request id, and
 * the call's Idempotency-Key when the route takes one.
 */
export class MemoryError extends Error {
  readonly code: string;
  readonly status: number | null;
  readonly details: Record<string, unknown> | undefined;
  readonly requestId: string | null;
  /**
   * The Idempotency-Key every attempt of the failed call sent (a keyed write: addMemory, addImageMemory,
   * uploadDocument, updateMemory and the deletes); null otherwise. After a timeout, a lost connection, a 503
   * SERVICE.UNAVAILABLE or a 409 IDEMPOTENCY.IN_PROGRESS the write may have been accepted: send it again with this
   * key (`{ idempotencyKey: error.idempotencyKey }`) and the service answers with the first job instead of a second.
   */
  readonly idempotencyKey: string | null;

  constructor(init: { code: string; status: number | null; message: string; details?: Record<string, unknown>; requestId?: string | null; idempotencyKey?: string | null; cause?: unknown }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.code = init.code;
    this.status = init.status;
    this.details = init.details;
    this.requestId = init.requestId ?? null;
    this.idempotencyKey = init.idempotencyKey ?? null;
  }
}

/** The service answered with a 4xx or 5xx and its `{"error":{"code","message","details"}}` body. */
export class MemoryApiError extends MemoryError {
  declare readonly status: number;
  /** Seconds the service asked to wait (Retry-After), when it said. */
  readonly retryAfterSeconds: number | null;

  constructor(init: { code: string; status: number; message: string; details?: Record<string, unknown>; requestId?: string | null; idempotencyKey?: string | null; retryAfterSeconds?: number | null }) {
    super(init);
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
  }
}

export class BadRequestError extends MemoryApiError {}
export class AuthenticationError extends MemoryApiError {}
export class PermissionDeniedError extends MemoryApiError {}
export class NotFoundError extends MemoryApiError {}
/** 409: MEMORY.NOT_READY (retry shortly) or IDEMPOTENCY.IN_PROGRESS. */
export class ConflictError extends MemoryApiError {}
export class PayloadTooLargeError extends MemoryApiError {}
export class UnsupportedMediaTypeError extends MemoryApiError {}
/** 422: MEMORY.NOT_EDITABLE, or an Idempotency-Key reused for a different request (IDEMPOTENCY.KEY_REUSED). */
export class UnprocessableEntityError extends MemoryApiError {}
export class RateLimitError extends MemoryApiError {}
export class InternalServerError extends MemoryApiError {}
export class NotImplementedError extends MemoryApiError {}
/**
 * 503: SERVICE.OVERLOADED (the pipeline is too far behind: nothing was accepted) or SERVICE.UNAVAILABLE (a store or the
 * log failed: a write may have been accepted, retry it with `idempotencyKey`). The SDK has already retried it
 * maxRetries times, with the same Idempotency-Key.
 */
export class ServiceUnavailableError extends MemoryApiError {}

const BY_STATUS: Record<number, typeof MemoryApiError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  413: PayloadTooLargeError,
  415: UnsupportedMediaTypeError,
  422: UnprocessableEntityError,
  429: RateLimitError,
  500: InternalServerError,
  501: NotImplementedError,
  503: ServiceUnavailableError,
};

/** What an error answer was: its status and body text, and what the transport knows of the call. */
export interface ErrorAnswer {
  status: number;
  /** The body as text: the service's `{"error":{...}}`, or whatever a proxy in front of it answered. */
  text: string;
  /** The X-Request-Id header; the body's error.requestId stands in when a proxy dropped it. */
  requestIdHeader: string | null;
  retryAfterSeconds: number | null;
  idempotencyKey: string | null;
}

/** The typed error of an error answer; a body that is not the service's error shape still gets a code, and is quoted. */
export function apiErrorOf(answer: ErrorAnswer): MemoryApiError {
  const { status, text } = answer;
  const error = (parseJson(text) as Partial<ErrorBody> | null | undefined)?.error;
  const ErrorClass = BY_STATUS[status] ?? MemoryApiError;
  const excerpt = text.trim().replace(/\s+/g, ' ').slice(0, 300);
  return new ErrorClass({
    status,
    code: typeof error?.code === 'string' ? error.code : `HTTP.${status}`,
    message: typeof error?.message === 'string' ? error.message
      : excerpt ? `the service (or a proxy in front of it) answered ${status}: ${excerpt}` : `the service answered ${status} with an empty body`,
    ...(error?.details ? { details: error.details } : {}),
    requestId: answer.requestIdHeader ?? (typeof error?.requestId === 'string' ? error.requestId : null),
    idempotencyKey: answer.idempotencyKey,
    retryAfterSeconds: answer.retryAfterSeconds,
  });
}

/** No answer: the service could not be reached (code SERVICE.UNREACHABLE), after the retries. */
export class MemoryConnectionError extends MemoryError {}

/** No answer within timeoutMs (code SERVICE.TIMEOUT), after the retries. */
export class MemoryTimeoutError extends MemoryError {}

/** waitForJob: the job ended Failed. `code` is the job's error code (JOB.FAILED when it has none), `reason` its reason. */
export class JobFailedError extends MemoryError {
  readonly job: Job;
  readonly reason: string | null;
  constructor(job: Job) {
    const reason = job.error?.reason ?? null;
    super({ code: job.error?.code ?? 'JOB.FAILED', status: null, message: `job ${job.jobId} failed${reason ? `: ${reason}` : ''}` });
    this.job = job;
    this.reason = reason;
  }
}

/** waitForJob: the job had not ended when timeoutMs ran out (code JOB.WAIT_TIMEOUT); `job` is its last state. */
export class JobTimeoutError extends MemoryError {
  readonly job: Job;
  constructor(job: Job, timeoutMs: number) {
    super({ code: 'JOB.WAIT_TIMEOUT', status: null, message: `job ${job.jobId} was still ${job.status}${job.stage ? ` (${job.stage})` : ''} after ${timeoutMs} ms` });
    this.job = job;
  }
}

/** verifyWebhook: a request that is not a genuine, fresh delivery signed with this secret. */
export class WebhookVerificationError extends MemoryError {
  constructor(code: 'WEBHOOK.MISSING_HEADERS' | 'WEBHOOK.TIMESTAMP_OUT_OF_TOLERANCE' | 'WEBHOOK.INVALID_SIGNATURE' | 'WEBHOOK.INVALID_SECRET' | 'WEBHOOK.INVALID_BODY', message: string) {
    super({ code, status: null, message });
  }
}
