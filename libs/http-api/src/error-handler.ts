import type { ServerResponse } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { errorMessage, MemoryServiceError, RequestError, type Logger } from '@memory/platform';
import { REQUEST_LIMITS } from './limits.js';

/** Every 4xx and 5xx has one body shape: { error: { code, message, details?, requestId } }. */
export function errorBody(code: string, message: string, details?: Record<string, unknown>): { error: { code: string; message: string; details?: Record<string, unknown>; requestId?: string } } {
  return { error: { code, message, ...(details ? { details } : {}) } };
}

/**
 * The body with the request's id, read from the X-Request-Id the answer carries (requestEnvelope sets it first),
 * so a client reporting an error hands over what finds its log lines. Read from the answer rather than the async
 * context, which a stream's callbacks (a multipart upload's) do not carry.
 */
export function identified(res: ServerResponse, body: ReturnType<typeof errorBody>): ReturnType<typeof errorBody> {
  const requestId = res.getHeader('x-request-id');
  return typeof requestId === 'string' ? { error: { ...body.error, requestId } } : body;
}

export const notFound: RequestHandler = (req, res) => {
  res.status(404).json(identified(res, errorBody('ROUTE.NOT_FOUND', `no route ${req.method} ${req.path}: see the README for the endpoints`)));
};

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, _req, res, _next) => {
    const { status, body, headers } = errorResponse(error, logger);
    if (headers) res.set(headers);
    res.status(status).json(identified(res, body));
  };
}

/**
 * Seconds a client is told to wait before retrying a 503: an engine back from a restart, or a search app coming
 * up, takes a few seconds, and a sooner retry only adds load to a service that is recovering.
 */
export const UNAVAILABLE_RETRY_AFTER_S = 5;

/**
 * The Retry-After header of an answer: the seconds asked for, else UNAVAILABLE_RETRY_AFTER_S on every 503 (the
 * error handler's, the text fast path's and readiness's alike), else none.
 */
export function retryAfterHeader(status: number, seconds?: number): Record<string, string> | undefined {
  const wait = seconds ?? (status === 503 ? UNAVAILABLE_RETRY_AFTER_S : undefined);
  return wait === undefined ? undefined : { 'retry-after': String(wait) };
}

/**
 * The status, body and headers of a failed request: the client's fault as it was raised, body-parser's by its type,
 * ours as 503 or 500. A RequestError whose details carry retryAfterSeconds gets that Retry-After; every 503 gets one.
 */
export function errorResponse(error: unknown, logger: Logger): { status: number; body: ReturnType<typeof errorBody>; headers?: Record<string, string> } {
  const { status, body, retryAfterSeconds } = classify(error, logger);
  const headers = retryAfterHeader(status, retryAfterSeconds);
  return { status, body, ...(headers ? { headers } : {}) };
}

function classify(error: unknown, logger: Logger): { status: number; body: ReturnType<typeof errorBody>; retryAfterSeconds?: number } {
  if (error instanceof RequestError) {
    const retryAfter = error.details?.['retryAfterSeconds'];
    return { status: error.status, body: errorBody(error.code, error.message, error.details), ...(typeof retryAfter === 'number' ? { retryAfterSeconds: retryAfter } : {}) };
  }
  // Express could not percent-decode a path parameter (%zz, %E0%A4%A, %ff): the path is the client's mistake.
  if (error instanceof URIError) return { status: 400, body: errorBody('REQUEST.INVALID_PATH', 'the path is not valid percent-encoded UTF-8') };
  // body-parser's errors (and the text-ingest fast path's, which raises the same) carry a `type` and a `status`.
  const parserError = error as { type?: string; status?: number };
  if (parserError.type === 'entity.too.large') {
    return { status: 413, body: errorBody('REQUEST.TOO_LARGE', `the request body is larger than ${REQUEST_LIMITS.jsonBodyBytes} bytes`) };
  }
  // The client went away mid-body (body-parser's type, or node:http's own 'aborted' on a request stream a route
  // reads itself; an engine's reset says 'read ECONNRESET' or 'socket hang up'): nobody hears this answer.
  if (parserError.type === 'request.aborted' || (errorMessage(error) === 'aborted' && (error as { code?: unknown }).code === 'ECONNRESET')) return { status: 400, body: errorBody('REQUEST.ABORTED', 'the request body stopped before its declared end') };
  if (parserError.type === 'entity.parse.failed') return { status: 400, body: errorBody('REQUEST.INVALID_JSON', 'the request body is not valid JSON') };
  if (parserError.type === 'encoding.unsupported' || parserError.type === 'charset.unsupported') {
    return { status: 415, body: errorBody('REQUEST.UNSUPPORTED_ENCODING', 'send the body as UTF-8 JSON') };
  }
  // Any other body-parser refusal is a body that cannot be read as sent: a gzip Content-Encoding over bytes that are
  // not gzip, a stream that failed half way. http-errors marks the client's faults as `expose`.
  if ((error as { expose?: unknown }).expose === true && typeof parserError.status === 'number' && parserError.status >= 400 && parserError.status < 500) {
    return { status: 400, body: errorBody('REQUEST.UNREADABLE_BODY', `the request body cannot be read as sent (${errorMessage(error)}): check its Content-Encoding`) };
  }
  const retriable = error instanceof MemoryServiceError ? error.retriable : true;
  logger.error('request failed', { code: error instanceof MemoryServiceError ? error.code : 'INTERNAL.UNEXPECTED', error: String(error) });
  return retriable
    ? { status: 503, body: errorBody('SERVICE.UNAVAILABLE', 'the service could not complete the request just now: retry with backoff, with the same Idempotency-Key, so that a request taken just before the failure is not taken twice') }
    : { status: 500, body: errorBody('INTERNAL.ERROR', 'an internal error occurred; nothing was accepted') };
}
