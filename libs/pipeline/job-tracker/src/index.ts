import type { StageSpec } from '@memory/pipeline-runtime';
import type { JobStore, Keyring } from '@memory/ports';
import { jobStatusOf, type JobStatus } from '@memory/contracts';
import { applyJobStatus } from './job-state.js';

export * from './job-state.js';

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
    const written = new Map<string, JobStatus>();
    for (const item of batch) {
      const status: JobStatus = item.event === 'jobStatus' ? (item.value as JobStatus) : jobStatusOf(item.value, 'Accepted', { stage: 'edge' });
      await jobs.update(status.tenantId, status.jobId, (current) => applyJobStatus(current, status, item.timestamp));
      written.set(`${status.tenantId}/${status.jobId}`, status);
    }
    // A job forgotten after this batch was decoded may have been written after the forgetter removed its record.
    for (const status of written.values()) {
      const scope = { tenantId: status.tenantId, endUserId: status.endUserId };
      if ((await keys.forgotten(scope, [status.jobId])).size > 0) await jobs.forget(status.tenantId, [status.jobId]);
    }
    return batch.map(() => []);
  },
};
