import type { Request, RequestHandler, Response } from 'express';
import { RequestError } from '@memory/platform';
import { authenticate, type ApiKeyRegistry } from '../auth.js';
import { IDEMPOTENT_REPLAYED_HEADER, type IdempotentOutcome } from '../idempotency.js';
import { validateEndUserId } from '../validation.js';

/** Bearer API key on every /v1 route; the tenant is kept on res.locals. */
export function requireApiKey(registry: ApiKeyRegistry): RequestHandler {
  return (req, res, next) => {
    res.locals['tenantId'] = authenticate(registry, req.headers.authorization);
    next();
  };
}

/** 415 before parsing when a JSON endpoint gets another content type. */
export const requireJson: RequestHandler = (req, _res, next) => {
  if (!req.is('application/json')) {
    throw new RequestError(415, 'REQUEST.UNSUPPORTED_MEDIA_TYPE', 'send Content-Type: application/json');
  }
  next();
};

export function scopeOf(req: Request, tenantId: string) {
  return { tenantId, endUserId: validateEndUserId(req.header('x-end-user-id')) };
}

/** Sends the answer of an idempotent route; a replayed one says so in Idempotent-Replayed. */
export function sendOutcome(res: Response, outcome: IdempotentOutcome): void {
  if (outcome.replayed) res.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
  res.status(outcome.status).json(outcome.body);
}
