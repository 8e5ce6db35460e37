import { Router, json } from 'express';
import { IDEMPOTENCY_KEY_HEADER, requestFingerprint, type Idempotency } from '../idempotency.js';
import { REQUEST_LIMITS } from '../limits.js';
import type { Updating } from '../updating.js';
import { validateId, validateTimeZone, validateUpdate } from '../validation.js';
import { requireJson, scopeOf, sendOutcome } from './guards.js';

/**
 * PATCH /v1/memories/{id}: 202 with an upd_job_ id; the new version replaces the memory once the pipeline wrote it.
 * 409 MEMORY.NOT_READY carries its Retry-After through the error handler (retryAfterSeconds).
 */
export function updateRoutes(updating: Updating, idempotency: Idempotency): Router {
  const router = Router();
  router.patch('/v1/memories/:id', requireJson, json({ limit: REQUEST_LIMITS.jsonBodyBytes }), async (req, res) => {
    const scope = scopeOf(req, res.locals['tenantId'] as string);
    const timeZone = validateTimeZone(req.header('x-end-user-timezone'));
    const change = validateUpdate(req.body);
    const memoryId = validateId(req.params['id'], 'id');
    const outcome = await idempotency.run({
      scope,
      key: req.header(IDEMPOTENCY_KEY_HEADER),
      fingerprint: () => requestFingerprint('PATCH /v1/memories/{id}', { memoryId, timeZone, body: JSON.stringify(req.body) }),
      // Named with the claim, as for ingestion: a retry after an attempt whose append may have landed (a 5xx, an edge
      // that died) accepts that same update job, which the pipeline writes as one version, not a second one.
      newJobId: () => updating.newJobId(scope),
      accept: async (jobId) => ({ status: 202, body: await updating.updateMemory(scope, memoryId, timeZone, change, jobId) }),
    });
    sendOutcome(res, outcome);
  });
  return router;
}
