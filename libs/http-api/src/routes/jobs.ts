import { Router } from 'express';
import { RequestError } from '@memory/platform';
import type { JobRecord, JobStore } from '@memory/ports';
import { jobWhenSettled } from '../job-wait.js';
import { REQUEST_LIMITS } from '../limits.js';
import { validateId } from '../validation.js';

/**
 * GET /v1/jobs/{jobId}: beyond the interface, the state of a job of the caller's tenant. With `waitMs` it is a long
 * poll: the answer comes as soon as the job is Completed or Failed, or with its state when the wait ends.
 */
export function jobRoutes(jobs: JobStore): Router {
  const router = Router();
  router.get('/v1/jobs/:jobId', async (req, res) => {
    const jobId = validateId(req.params['jobId'], 'jobId');
    const waitMs = waitOf(req.query['waitMs']);
    const read = () => jobs.get(res.locals['tenantId'] as string, jobId);
    const clientGone = new AbortController();
    res.on('close', () => clientGone.abort());
    const endUserId = req.header('x-end-user-id');
    const visible = (found: JobRecord | null): found is JobRecord => found !== null && (endUserId === undefined || endUserId === found.endUserId);
    const notFound = () => new RequestError(404, 'JOB.NOT_FOUND', `no job ${jobId} for this API key`);
    // Whose job it is is settled before any wait, so another end user's job answers 404 as fast as a missing one.
    const first = await read();
    if (!visible(first)) throw notFound();
    const job = waitMs > 0 ? await jobWhenSettled(read, waitMs, clientGone.signal) : first;
    if (!visible(job)) throw notFound();
    res.json({
      jobId: job.jobId,
      status: job.state,
      stage: job.stage,
      endUserId: job.endUserId,
      memoryIds: job.memoryIds.filter(Boolean),
      partCount: job.partCount,
      ...(job.state === 'Failed' ? { error: { code: job.errorCode, reason: job.reason } } : {}),
      ...(job.receipt ? { receipt: job.receipt } : {}),
      acceptedAt: job.acceptedAt,
      updatedAt: job.updatedAt,
    });
  });
  return router;
}

function waitOf(raw: unknown): number {
  if (raw === undefined) return 0;
  const max = REQUEST_LIMITS.jobWaitMaxMs;
  if (typeof raw !== 'string' || !/^\d{1,9}$/.test(raw) || Number(raw) > max) {
    throw new RequestError(400, 'JOB.INVALID_WAIT', `waitMs must be a whole number of milliseconds from 0 to ${max}`);
  }
  return Number(raw);
}
