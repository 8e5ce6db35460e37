import { Router, json } from 'express';
import { RequestError } from '@memory/platform';
import { REQUEST_LIMITS } from '../limits.js';
import type { Updating } from '../updating.js';
import { validateTimeZone, validateUpdate } from '../validation.js';
import { requireJson, scopeOf } from './guards.js';

/** PATCH /v1/memories/{id}: 202 with an upd_job_ id; the new version replaces the memory once the pipeline wrote it. */
export function updateRoutes(updating: Updating): Router {
  const router = Router();
  router.patch('/v1/memories/:memoryId', requireJson, json({ limit: REQUEST_LIMITS.jsonBodyBytes }), async (req, res) => {
    const scope = scopeOf(req, res.locals['tenantId'] as string);
    const timeZone = validateTimeZone(req.header('x-end-user-timezone'));
    const change = validateUpdate(req.body);
    try {
      res.status(202).json(await updating.updateMemory(scope, String(req.params['memoryId']), timeZone, change));
    } catch (error) {
      if (error instanceof RequestError && error.code === 'MEMORY.NOT_READY') res.set('Retry-After', String(error.details?.['retryAfterSeconds'] ?? 1));
      throw error;
    }
  });
  return router;
}
