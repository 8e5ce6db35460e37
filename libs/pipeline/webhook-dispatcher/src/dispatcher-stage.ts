import type { StageSpec } from '@memory/pipeline-runtime';
import { jobStatusOf, type ForgetRequested, type JobStatus } from '@memory/contracts';
import type { JobRecord, JobStore, WebhookEndpoint, WebhookStore } from '@memory/ports';
import { applyJobStatus } from '@memory/stage-job-tracker';
import { deliveryIdOf, eventsOfJob, webhookBody } from './events.js';
import type { RetrySchedule } from './schedule.js';

export interface WebhookDispatcherDeps {
  /** The dispatcher's own projection of jobs (not the job tracker's, which may lag behind it). */
  jobs: JobStore;
  webhooks: WebhookStore;
  schedule: Pick<RetrySchedule, 'windowMs'>;
}

/**
 * Turns ended jobs into deliveries: it projects every job status report (and what each forgetting request
 * forgets) the way the job tracker does, and once a job has ended enqueues one delivery per event and subscribed
 * endpoint of the tenant. Sending is left to the delivery loop, so a slow endpoint never holds the log. Delivery ids
 * are derived and enqueueing keeps the first, so a redelivered or replayed record enqueues nothing new; an endpoint
 * registered after the job ended is not sent its past events.
 */
export const webhookDispatcherStage: StageSpec<'jobStatus' | 'forgetRequested', WebhookDispatcherDeps> = {
  name: 'webhook-dispatcher',
  group: 'webhook-dispatcher',
  inputs: ['jobStatus', 'forgetRequested'],
  outputs: [],
  async process(batch, { jobs, webhooks, schedule }) {
    // A tenant's endpoints are read once per batch: most records of a batch belong to a few tenants.
    const endpointsOf = new Map<string, Promise<WebhookEndpoint[]>>();
    for (const item of batch) {
      const job = item.event === 'jobStatus' ? (item.value as JobStatus) : (item.value as ForgetRequested);
      if (!endpointsOf.has(job.tenantId)) endpointsOf.set(job.tenantId, webhooks.listEndpoints(job.tenantId));
      const endpoints = (await endpointsOf.get(job.tenantId)!).filter((endpoint) => endpoint.createdAt <= item.timestamp);
      if (endpoints.length === 0) continue;
      const record = await jobs.update(job.tenantId, job.jobId, (current) =>
        item.event === 'jobStatus' ? applyJobStatus(current, job as JobStatus, item.timestamp) : withForgetTarget(current, job as ForgetRequested, item.timestamp),
      );
      for (const event of eventsOfJob(record)) {
        for (const endpoint of endpoints.filter((candidate) => candidate.events.includes(event.type))) {
          await webhooks.enqueue({
            id: deliveryIdOf(endpoint.id, record.jobId, event.type),
            tenantId: endpoint.tenantId,
            webhookId: endpoint.id,
            eventType: event.type,
            body: webhookBody(event, record.updatedAt),
            state: 'pending',
            attempts: 0,
            nextAttemptAt: item.timestamp,
            lastStatus: null,
            lastError: null,
            retryUntil: item.timestamp + schedule.windowMs,
            createdAt: item.timestamp,
            updatedAt: item.timestamp,
          });
        }
      }
      // After an erasure the projection keeps nothing of the end user's earlier jobs (the erasure's own record stays).
      if (record.state === 'Completed' && record.forget?.target === 'user') await jobs.erase({ tenantId: record.tenantId, endUserId: record.endUserId }, record.acceptedAt);
    }
    return batch.map(() => []);
  },
};

function withForgetTarget(current: JobRecord | null, request: ForgetRequested, at: number): JobRecord {
  const record = applyJobStatus(current, jobStatusOf(request, 'Accepted', { stage: 'edge' }), at);
  return { ...record, forget: { target: request.target, memoryId: request.memoryId, targetJobId: request.targetJobId } };
}
