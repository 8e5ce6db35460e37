import { Router } from 'express';
import { RequestError } from '@memory/platform';
import type { Forgetting } from '../forgetting.js';
import { validateEndUserId } from '../validation.js';
import { scopeOf } from './guards.js';

/** DELETE of a memory, of a job's memories, and of an end user: 202 with a del_job_ id whose record holds the receipt. */
export function forgetRoutes(forgetting: Forgetting): Router {
  const router = Router();
  router.delete('/v1/memories/:memoryId', async (req, res) => {
    const scope = scopeOf(req, res.locals['tenantId'] as string);
    res.status(202).json(await forgetting.forgetMemory(scope, req.params['memoryId'] as string));
  });
  router.delete('/v1/memories', async (req, res) => {
    const scope = scopeOf(req, res.locals['tenantId'] as string);
    const jobId = req.query['job_id'];
    if (typeof jobId !== 'string' || jobId === '') {
      throw new RequestError(400, 'FORGET.MISSING_JOB_ID', 'DELETE /v1/memories needs ?job_id=<jobId> (every memory that job made); to forget everything of an end user use DELETE /v1/users/{endUserId}');
    }
    res.status(202).json(await forgetting.forgetJob(scope, jobId));
  });
  router.delete('/v1/users/:endUserId', async (req, res) => {
    const endUserId = validateEndUserId(req.params['endUserId']);
    const header = req.header('x-end-user-id');
    if (header !== undefined && header !== endUserId) {
      throw new RequestError(400, 'FORGET.END_USER_MISMATCH', 'x-end-user-id, when sent, must name the end user being erased');
    }
    res.status(202).json(await forgetting.eraseUser({ tenantId: res.locals['tenantId'] as string, endUserId }));
  });
  return router;
}
