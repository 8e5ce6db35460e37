import { Router } from 'express';
import { RequestError } from '@memory/platform';
import type { JobStore } from '@memory/ports';

/** GET /v1/jobs/{jobId}: beyond the interface, the state of an ingestion job of the caller's tenant. */
export function jobRoutes(jobs: JobStore): Router {
  const router = Router();
  router.get('/v1/jobs/:jobId', async (req, res) => {
    const job = await jobs.get(res.locals['tenantId'] as string, req.params['jobId'] as string);
    const endUserId = req.header('x-end-user-id');
    if (!job || (endUserId !== undefined && endUserId !== job.endUserId)) {
      throw new RequestError(404, 'JOB.NOT_FOUND', `no job ${req.params['jobId']} for this API key`);
    }
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
