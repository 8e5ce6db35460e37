import type { ErrorRequestHandler, RequestHandler } from 'express';
import { MemoryServiceError, RequestError, type Logger } from '@memory/platform';
import { REQUEST_LIMITS } from './limits.js';

/** Every 4xx and 5xx has one body shape: { error: { code, message, details? } }. */
export function errorBody(code: string, message: string, details?: Record<string, unknown>) {
  return { error: { code, message, ...(details ? { details } : {}) } };
}

export const notFound: RequestHandler = (req, res) => {
  res.status(404).json(errorBody('ROUTE.NOT_FOUND', `no route ${req.method} ${req.path}: see the README for the endpoints`));
};

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, _req, res, _next) => {
    if (error instanceof RequestError) {
      res.status(error.status).json(errorBody(error.code, error.message, error.details));
      return;
    }
    // body-parser's errors carry a `type` and a `status`.
    const parserError = error as { type?: string; status?: number };
    if (parserError.type === 'entity.too.large') {
      res.status(413).json(errorBody('REQUEST.TOO_LARGE', `the request body is larger than ${REQUEST_LIMITS.jsonBodyBytes} bytes`));
      return;
    }
    if (parserError.type === 'entity.parse.failed') {
      res.status(400).json(errorBody('REQUEST.INVALID_JSON', 'the request body is not valid JSON'));
      return;
    }
    if (parserError.type === 'encoding.unsupported' || parserError.type === 'charset.unsupported') {
      res.status(415).json(errorBody('REQUEST.UNSUPPORTED_ENCODING', 'send the body as UTF-8 JSON'));
      return;
    }
    const retriable = error instanceof MemoryServiceError ? error.retriable : true;
    logger.error('request failed', { code: error instanceof MemoryServiceError ? error.code : 'INTERNAL.UNEXPECTED', error: String(error) });
    res.status(retriable ? 503 : 500).json(errorBody(
      retriable ? 'SERVICE.UNAVAILABLE' : 'INTERNAL.ERROR',
      retriable ? 'the service could not complete the request just now; nothing was accepted, retry with backoff' : 'an internal error occurred; nothing was accepted',
    ));
  };
}
