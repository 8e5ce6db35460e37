import { Router, type Request, type Response } from 'express';
import { RequestError } from '@memory/platform';
import type { Scope } from '@memory/ports';
import type { Forgetting } from '../forgetting.js';
import { IDEMPOTENCY_KEY_HEADER, requestFingerprint, type Idempotency } from '../idempotency.js';
import { validateEndUserId, validateId } from '../validation.js';
import { scopeOf, sendOutcome } from './guards.js';

/**
 * DELETE of a memory, of a job's memories, and of an end user: 202 with a del_job_ id whose record holds the receipt.
 * Forgetting is idempotent by itself (a second delete removes nothing); an Idempotency-Key also makes a retry answer
 * with the first job instead of accepting a second one, also after a first attempt that failed (a 5xx) or whose edge
 * died: the retry accepts the job that attempt named, whose append may have landed.
 */
export function forgetRoutes(forgetting: Forgetting, idempotency: Idempotency): Router {
  const router = Router();
  /**
   * `jobScope` is the end user the forget job is issued for (the key's scope but for an erasure); the job id is named
   * with the key's claim, as for ingestion, so a retry after an attempt whose append may have landed accepts that
   * same forget job, with its same boundary, rather than a second one.
   */
  const answer = async (req: Request, res: Response, keyScope: Scope, jobScope: Scope, route: string, target: string, accept: (jobId: string | undefined) => Promise<{ status: 'Accepted'; jobId: string }>) => {
    const outcome = await idempotency.run({
      scope: keyScope,
      key: req.header(IDEMPOTENCY_KEY_HEADER),
      fingerprint: () => requestFingerprint(route, { target }),
      newJobId: () => forgetting.newJobId(jobScope),
      accept: async (jobId) => ({ status: 202, body: await accept(jobId) }),
    });
    sendOutcome(res, outcome);
  };
  router.delete('/v1/memories/:id', async (req, res) => {
    const scope = scopeOf(req, res.locals['tenantId'] as string);
    const memoryId = validateId(req.params['id'], 'id');
    await answer(req, res, scope, scope, 'DELETE /v1/memories/{id}', memoryId, (given) => forgetting.forgetMemory(scope, memoryId, given));
  });
  router.delete('/v1/memories', async (req, res) => {
    const scope = scopeOf(req, res.locals['tenantId'] as string);
    const jobId = req.query['job_id'];
    if (typeof jobId !== 'string' || jobId === '') {
      throw new RequestError(400, 'FORGET.MISSING_JOB_ID', 'DELETE /v1/memories needs ?job_id=<jobId> (every memory that job made); to forget everything of an end user use DELETE /v1/users/{endUserId}');
    }
    await answer(req, res, scope, scope, 'DELETE /v1/memories?job_id', jobId, (given) => forgetting.forgetJob(scope, jobId, given));
  });
  router.delete('/v1/users/:endUserId', async (req, res) => {
    const endUserId = validateEndUserId(req.params['endUserId']);
    const header = req.header('x-end-user-id');
    if (header !== undefined && header !== endUserId) {
      throw new RequestError(400, 'FORGET.END_USER_MISMATCH', 'x-end-user-id, when sent, must name the end user being erased');
    }
    const scope = { tenantId: res.locals['tenantId'] as string, endUserId };
    // The erasure removes the end user's Idempotency-Key records, so its own key is kept beside them, under a name no
    // end user id can take ('/' is not allowed in one): a retry after the erasure still gets the first job.
    const keyScope = { tenantId: scope.tenantId, endUserId: `erasure/${endUserId}` };
    await answer(req, res, keyScope, scope, 'DELETE /v1/users/{id}', endUserId, (given) => forgetting.eraseUser(scope, given));
  });
  return router;
}
