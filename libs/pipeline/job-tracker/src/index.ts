import type { ForgottenRecord, StageSpec } from '@memory/pipeline-runtime';
import { mapWithConcurrency } from '@memory/platform';
import type { JobRecord, JobStore, Keyring, Scope } from '@memory/ports';
import { jobStatusOf, type JobStatus } from '@memory/contracts';
import { applyJobStatuses } from './job-state.js';

export * from './job-state.js';

/** End users whose forgotten jobs are looked up at once by one tracker. */
const LOOKUPS_IN_FLIGHT = 16;

export interface JobTrackerDeps {
  jobs: JobStore;
  /** To see, after the writes, whether a job was forgotten meanwhile. */
  keys: Pick<Keyring, 'forgotten'>;
}

/** Projects ingestion requests and every stage's status reports into the job store that GET /v1/jobs reads. */
export const jobTrackerStage: StageSpec<'ingestRequested' | 'jobStatus', JobTrackerDeps> = {
  name: 'job-tracker',
  group: 'job-tracker',
  inputs: ['ingestRequested', 'jobStatus'],
  outputs: [],
  async process(batch, { jobs, keys }) {
    // One read-modify-write per job, its reports merged in log order, and the jobs of a batch written together: in
    // the distributed mode the store writes updates that come together in one read and one write request.
    const reportsByJob = new Map<string, Array<{ status: JobStatus; at: number; requestId: string | undefined }>>();
    for (const item of batch) {
      const status: JobStatus = item.event === 'jobStatus' ? (item.value as JobStatus) : jobStatusOf(item.value, 'Accepted', { stage: 'edge' });
      const id = `${status.tenantId}\u0000${status.jobId}`;
      reportsByJob.set(id, [...(reportsByJob.get(id) ?? []), { status, at: item.timestamp, requestId: item.requestId }]);
    }
    const reports = [...reportsByJob.values()];
    await Promise.all(
      reports.map((ofJob) => {
        const { tenantId, jobId } = ofJob[0]!.status;
        return jobs.update(tenantId, jobId, (current) => applyJobStatuses(current, ofJob));
      }),
    );
    // A job forgotten after this batch was decoded may have been written after the forgetter removed its record.
    const jobsByUser = new Map<string, { scope: Scope; jobIds: string[] }>();
    for (const status of reports.map((ofJob) => ofJob[0]!.status)) {
      const user = `${status.tenantId}\u0000${status.endUserId}`;
      const entry = jobsByUser.get(user) ?? { scope: { tenantId: status.tenantId, endUserId: status.endUserId }, jobIds: [] };
      entry.jobIds.push(status.jobId);
      jobsByUser.set(user, entry);
    }
    await mapWithConcurrency([...jobsByUser.values()], LOOKUPS_IN_FLIGHT, ({ scope, jobIds }) => forgetForgottenJobs(scope, jobIds, { jobs, keys }));
    return batch.map(() => []);
  },
  // A report that no longer opens may be of a job an earlier delivery wrote and stopped before its check of the
  // tombstones. Only the jobs forgotten themselves go: an update whose memory was forgotten in the pipeline keeps its
  // Failed record (its ingest request, sealed with the memory's key, no longer opens either).
  async takeBackForgotten(scope, records, deps) {
    const written = await heldJobs(scope, records, deps.jobs);
    if (written.length > 0) await forgetForgottenJobs(scope, written.map(({ jobId }) => jobId), deps);
  },
};

/** The records a job store still holds of the jobs that records which no longer open name (their job-id headers). */
export async function heldJobs(scope: Scope, records: ForgottenRecord[], jobs: JobStore): Promise<JobRecord[]> {
  const jobIds = [...new Set(records.flatMap(({ jobId }) => (jobId === null ? [] : [jobId])))];
  return (await Promise.all(jobIds.map((jobId) => jobs.get(scope.tenantId, jobId)))).filter((record): record is JobRecord => record !== null);
}

/**
 * Removes the records of those of these jobs of one end user that are forgotten (their tombstones, an erasure), and
 * returns those. Also the webhook dispatcher's check of its own projection of jobs.
 */
export async function forgetForgottenJobs(scope: Scope, jobIds: string[], { jobs, keys }: JobTrackerDeps): Promise<Set<string>> {
  const forgotten = await keys.forgotten(scope, jobIds);
  if (forgotten.size > 0) await jobs.forget(scope.tenantId, [...forgotten]);
  return forgotten;
}
