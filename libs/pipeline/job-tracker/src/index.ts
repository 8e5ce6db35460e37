import type { StageSpec } from '@memory/pipeline-runtime';
import type { JobStore } from '@memory/ports';
import { jobStatusOf, type JobStatus } from '@memory/contracts';
import { applyJobStatus } from './job-state.js';

export * from './job-state.js';

export interface JobTrackerDeps {
  jobs: JobStore;
}

/** Projects ingestion requests and every stage's status reports into the job store that GET /v1/jobs reads. */
export const jobTrackerStage: StageSpec<'ingestRequested' | 'jobStatus', JobTrackerDeps> = {
  name: 'job-tracker',
  group: 'job-tracker',
  inputs: ['ingestRequested', 'jobStatus'],
  outputs: [],
  async process(batch, { jobs }) {
    for (const item of batch) {
      const status: JobStatus = item.event === 'jobStatus' ? (item.value as JobStatus) : jobStatusOf(item.value, 'Accepted', { stage: 'edge' });
      await jobs.update(status.tenantId, status.jobId, (current) => applyJobStatus(current, status, item.timestamp));
    }
    return batch.map(() => []);
  },
};
