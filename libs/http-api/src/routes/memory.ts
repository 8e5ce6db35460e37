import { Router, json } from 'express';
import type { Ingestion } from '../ingestion.js';
import { REQUEST_LIMITS } from '../limits.js';
import { validateTextIngest, validateTimeZone } from '../validation.js';
import { requireJson, scopeOf } from './guards.js';

export function memoryRoutes(ingestion: Ingestion): Router {
  const router = Router();
  router.post('/v1/memory', requireJson, json({ limit: REQUEST_LIMITS.jsonBodyBytes }), async (req, res) => {
    const scope = scopeOf(req, res.locals['tenantId'] as string);
    const timeZone = validateTimeZone(req.header('x-end-user-timezone'));
    const request = validateTextIngest(req.body);
    res.status(202).json(await ingestion.acceptText(scope.tenantId, scope.endUserId, timeZone, request));
  });
  return router;
}
