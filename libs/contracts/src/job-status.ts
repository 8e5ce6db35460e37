import type { JobState, JobStatus } from './generated/events.js';

/** The one builder of a job status report: the job's ids, its state, and whatever else this report says. */
export function jobStatusOf(job: { jobId: string; tenantId: string; endUserId: string }, state: JobState, details: Partial<Omit<JobStatus, 'jobId' | 'tenantId' | 'endUserId' | 'state'>> = {}): JobStatus {
  return {
    jobId: job.jobId,
    tenantId: job.tenantId,
    endUserId: job.endUserId,
    state,
    stage: null,
    partIndex: null,
    partCount: null,
    memoryId: null,
    errorCode: null,
    reason: null,
    receipt: null,
    ...details,
  };
}
