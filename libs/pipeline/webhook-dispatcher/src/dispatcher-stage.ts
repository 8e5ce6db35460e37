import type { StageSpec } from '@memory/pipeline-runtime';
import { mapWithConcurrency } from '@memory/platform';
import { acceptedAtOf, jobStatusOf, type ForgetRequested, type JobStatus } from '@memory/contracts';
import type { JobRecord, JobStore, Keyring, Scope, WebhookEndpoint, WebhookStore } from '@memory/ports';
import { applyJobStatus, forgetForgottenJobs, heldJobs } from '@memory/stage-job-tracker';
import { deliveryIdOf, eventsOfJob, webhookBody } from './events.js';
import type { RetrySchedule } from './schedule.js';

/** Job records written at once by one dispatcher. */
const WRITES_IN_FLIGHT = 16;

export interface WebhookDispatcherDeps {
  /** The dispatcher's own projection of jobs (not the job tracker's, which may lag behind it). */
  jobs: JobStore;
  webhooks: WebhookStore;
  /** To see, after the writes, whether a job was forgotten meanwhile. */
  keys: Pick<Keyring, 'forgotten'>;
  schedule: Pick<RetrySchedule, 'windowMs'>;
}

/** A job this batch projected, with the endpoints that may hear of it. */
interface Projected {
  record: JobRecord;
  endpoints: WebhookEndpoint[];
  /** The log time of the job's last record in the batch. */
  lastAt: number;
}

const jobKeyOf = (tenantId: string, jobId: string) => `${tenantId}\u0000${jobId}`;

/**
 * Turns ended jobs into deliveries: it projects every job status report (and what each forgetting request
 * forgets) the way the job tracker does, and once a job has ended enqueues one delivery per event and subscribed
 * endpoint of the tenant. Sending is left to the delivery loop, so a slow endpoint never holds the log. Delivery ids
 * are derived and enqueueing keeps the first, so a redelivered or replayed record enqueues nothing new. An endpoint is
 * sent the events of the jobs accepted after it was registered: the accept time is in the job's id, so a replay, whose
 * reports come with new log times and may find no projection of the job, decides as the first pass did. Between the
 * projection and the deliveries it checks the tombstones, as the job tracker does: a job forgotten meanwhile is
 * taken back and announced to no one.
 */
export const webhookDispatcherStage: StageSpec<'jobStatus' | 'forgetRequested', WebhookDispatcherDeps> = {
  name: 'webhook-dispatcher',
  group: 'webhook-dispatcher',
  inputs: ['jobStatus', 'forgetRequested'],
  outputs: [],
  async process(batch, deps) {
    const { jobs, webhooks, schedule } = deps;
    // A tenant's endpoints are read once per batch: most records of a batch belong to a few tenants.
    const endpointsOf = new Map<string, Promise<WebhookEndpoint[]>>();
    // One read-modify-write per job, its records applied in log order, jobs written concurrently (as the job tracker
    // does): each write is a round trip in the distributed mode.
    const recordsByJob = new Map<string, typeof batch>();
    const erasures: Array<Pick<JobRecord, 'tenantId' | 'endUserId' | 'acceptedAt'>> = [];
    for (const item of batch) {
      const { tenantId, jobId } = item.value as JobStatus | ForgetRequested;
      const id = jobKeyOf(tenantId, jobId);
      recordsByJob.set(id, [...(recordsByJob.get(id) ?? []), item]);
    }
    const projected = await mapWithConcurrency([...recordsByJob.values()], WRITES_IN_FLIGHT, async (ofJob): Promise<Projected | null> => {
      const { tenantId, jobId } = ofJob[0]!.value as JobStatus | ForgetRequested;
      const acceptedAt = acceptedAtOf(jobId) ?? ofJob[0]!.timestamp;
      if (!endpointsOf.has(tenantId)) endpointsOf.set(tenantId, webhooks.listEndpoints(tenantId));
      const endpoints = (await endpointsOf.get(tenantId)!).filter((endpoint) => endpoint.createdAt <= acceptedAt);
      if (endpoints.length === 0) {
        // Nothing to send, so nothing to project; but what the tenant's earlier endpoints made this projection and the
        // delivery log keep of an end user goes with their erasure all the same.
        for (const item of ofJob) {
          const request = item.value as ForgetRequested;
          if (item.event === 'forgetRequested' && request.target === 'user') erasures.push(request);
        }
        return null;
      }
      const record = await jobs.update(tenantId, jobId, (current) =>
        ofJob.reduce<JobRecord | null>(
          (job, item) => (item.event === 'jobStatus' ? applyJobStatus(job, item.value as JobStatus, item.timestamp) : withForgetTarget(job, item.value as ForgetRequested, item.timestamp)),
          current,
        )!,
      );
      // The erasure's boundary is its accept time, as the edge set it (the record's acceptedAt is a log time, later):
      // its own record and events are not before it.
      if (record.state === 'Completed' && record.forget?.target === 'user') erasures.push({ tenantId, endUserId: record.endUserId, acceptedAt });
      return { record, endpoints, lastAt: ofJob[ofJob.length - 1]!.timestamp };
    });
    const written = projected.filter((job): job is Projected => job !== null);
    // Checked before enqueueing, so a job known to be forgotten is announced to no one; and again after, since the
    // forgetter may have removed the job's deliveries between that check and the enqueue (its tombstone is written
    // before the forgetter runs, so the second check sees every forget the enqueue could have missed).
    const forgotten = await takeBackForgottenJobs(written.map(({ record }) => record), deps);
    const announced = written.filter(({ record }) => !forgotten.has(jobKeyOf(record.tenantId, record.jobId)));
    await mapWithConcurrency(announced, WRITES_IN_FLIGHT, (job) => enqueueEvents(job, webhooks, schedule));
    const ending = announced.filter(({ record }) => eventsOfJob(record).length > 0);
    if (ending.length > 0) await takeBackForgottenJobs(ending.map(({ record }) => record), deps);
    // After an erasure the projection and the delivery log keep nothing of the end user's earlier jobs (the erasure's
    // own record and events stay); applied once every write of the batch is done, so nothing written concurrently
    // outlives it. The forgetter removed the deliveries it could see; these are the ones enqueued since.
    for (const erasure of erasures) {
      const scope = { tenantId: erasure.tenantId, endUserId: erasure.endUserId };
      await jobs.erase(scope, erasure.acceptedAt);
      await webhooks.forgetUser(scope, erasure.acceptedAt);
    }
    return batch.map(() => []);
  },
  // A report that no longer opens may be of a job an earlier delivery projected, or enqueued events of, and stopped
  // before its check of the tombstones (a crash): the job's projection and deliveries go if the job is forgotten.
  async takeBackForgotten(scope, records, deps) {
    const held = await heldJobs(scope, records, deps.jobs);
    if (held.length > 0) await takeBackForgottenJobs(held, deps);
  },
};

/** One delivery per event of the ended job and endpoint subscribed to it; nothing while the job runs. */
async function enqueueEvents({ record, endpoints, lastAt }: Projected, webhooks: WebhookStore, schedule: Pick<RetrySchedule, 'windowMs'>): Promise<void> {
  for (const event of eventsOfJob(record)) {
    for (const endpoint of endpoints.filter((candidate) => candidate.events.includes(event.type))) {
      await webhooks.enqueue({
        id: deliveryIdOf(endpoint.id, record.jobId, event.type),
        tenantId: endpoint.tenantId,
        endUserId: record.endUserId,
        jobId: record.jobId,
        webhookId: endpoint.id,
        eventType: event.type,
        body: webhookBody(event, record.updatedAt),
        state: 'pending',
        attempts: 0,
        nextAttemptAt: lastAt,
        lastStatus: null,
        lastError: null,
        retryUntil: lastAt + schedule.windowMs,
        createdAt: lastAt,
        updatedAt: lastAt,
      });
    }
  }
}

/**
 * The jobs of the batch forgotten since its records were decoded (or decoded with their keys still cached): the
 * forgetter may have removed their records and deliveries before this batch wrote its own. Their projection is taken
 * back (forgetForgottenJobs, the job tracker's check), and so are the deliveries an earlier delivery of their records
 * enqueued. Returns them as jobKeyOf keys.
 */
async function takeBackForgottenJobs(records: JobRecord[], deps: WebhookDispatcherDeps): Promise<Set<string>> {
  const byUser = new Map<string, { scope: Scope; jobIds: string[] }>();
  for (const { tenantId, endUserId, jobId } of records) {
    const user = `${tenantId}\u0000${endUserId}`;
    const entry = byUser.get(user) ?? { scope: { tenantId, endUserId }, jobIds: [] };
    entry.jobIds.push(jobId);
    byUser.set(user, entry);
  }
  const forgotten = new Set<string>();
  await mapWithConcurrency([...byUser.values()], WRITES_IN_FLIGHT, async ({ scope, jobIds }) => {
    const gone = [...(await forgetForgottenJobs(scope, jobIds, deps))];
    if (gone.length === 0) return;
    await deps.webhooks.forgetJobs(scope, gone);
    for (const jobId of gone) forgotten.add(jobKeyOf(scope.tenantId, jobId));
  });
  return forgotten;
}

function withForgetTarget(current: JobRecord | null, request: ForgetRequested, at: number): JobRecord {
  const record = applyJobStatus(current, jobStatusOf(request, 'Accepted', { stage: 'edge' }), at);
  return { ...record, forget: { target: request.target, memoryId: request.memoryId, targetJobId: request.targetJobId } };
}
