import { Router, json } from 'express';
import { IDEMPOTENCY_KEY_HEADER } from '../idempotency.js';
import { REQUEST_LIMITS } from '../limits.js';
import { ingestText, type TextIngestDeps } from '../text-ingest.js';
import { requireJson, sendOutcome } from './guards.js';

export function memoryRoutes(deps: TextIngestDeps): Router {
  const router = Router();
  router.post('/v1/memory', requireJson, json({ limit: REQUEST_LIMITS.jsonBodyBytes }), async (req, res) => {
    const headers = { endUserId: req.header('x-end-user-id'), timeZone: req.header('x-end-user-timezone'), idempotencyKey: req.header(IDEMPOTENCY_KEY_HEADER) };
    sendOutcome(res, await ingestText(deps, res.locals['tenantId'] as string, headers, req.body));
  });
  return router;
}
