import type { ServerResponse } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { MemoryServiceError, RequestError, type Logger } from '@memory/platform';
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
 * The status, body and headers of a failed request: the client's fault as it was raised, body-parser's by its type,
 * ours as 503 or 500. A RequestError whose details carry retryAfterSeconds also gets a Retry-After header.
 */
export function errorResponse(error: unknown, logger: Logger): { status: number; body: ReturnType<typeof errorBody>; headers?: Record<string, string> } {
  if (error instanceof RequestError) {
    const retryAfter = error.details?.['retryAfterSeconds'];
    return { status: error.status, body: errorBody(error.code, error.message, error.details), ...(typeof retryAfter === 'number' ? { headers: { 'retry-after': String(retryAfter) } } : {}) };
  }
  // body-parser's errors (and the text-ingest fast path's, which raises the same) carry a `type` and a `status`.
  const parserError = error as { type?: string; status?: number };
  if (parserError.type === 'entity.too.large') {
    return { status: 413, body: errorBody('REQUEST.TOO_LARGE', `the request body is larger than ${REQUEST_LIMITS.jsonBodyBytes} bytes`) };
  }
  if (parserError.type === 'entity.parse.failed') return { status: 400, body: errorBody('REQUEST.INVALID_JSON', 'the request body is not valid JSON') };
  if (parserError.type === 'encoding.unsupported' || parserError.type === 'charset.unsupported') {
    return { status: 415, body: errorBody('REQUEST.UNSUPPORTED_ENCODING', 'send the body as UTF-8 JSON') };
  }
  const retriable = error instanceof MemoryServiceError ? error.retriable : true;
  logger.error('request failed', { code: error instanceof MemoryServiceError ? error.code : 'INTERNAL.UNEXPECTED', error: String(error) });
  return retriable
    ? { status: 503, body: errorBody('SERVICE.UNAVAILABLE', 'the service could not complete the request just now; nothing was accepted, retry with backoff') }
    : { status: 500, body: errorBody('INTERNAL.ERROR', 'an internal error occurred; nothing was accepted') };
}
