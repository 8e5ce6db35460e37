import type { JobStatus } from '@memory/contracts';
import type { JobRecord } from '@memory/ports';
import { STAGE_ORDER } from '@memory/pipeline-runtime';

const rank = (stage: string | null) => (stage === null ? -1 : STAGE_ORDER.indexOf(stage as (typeof STAGE_ORDER)[number]));

/**
 * Merges one status report into a job record. The merge is monotone (a job never moves back: Failed and
 * Completed are final, the stage only advances), so reports may arrive in any order across topics and be
 * delivered twice without changing the outcome. A job is Completed when every part has completed.
 */
export function applyJobStatus(current: JobRecord | null, status: JobStatus, at: number, requestId?: string): JobRecord {
  const job: JobRecord = current
    ? { ...current, memoryIds: [...current.memoryIds] }
    : { jobId: status.jobId, tenantId: status.tenantId, endUserId: status.endUserId, state: 'Accepted', stage: null, partCount: null, memoryIds: [], errorCode: null, reason: null, acceptedAt: at, updatedAt: at };
  // Every record of a job carries the id of the one request that accepted it; the first one seen is kept.
  if (requestId !== undefined && !job.requestId) job.requestId = requestId;
  job.acceptedAt = Math.min(job.acceptedAt, at);
  job.updatedAt = Math.max(job.updatedAt, at);
  if (job.state === 'Failed' || job.state === 'Completed') return job;
  if (status.partCount !== null) job.partCount = status.partCount;
  if (rank(status.stage) > rank(job.stage)) job.stage = status.stage;

  switch (status.state) {
    case 'Failed':
      job.state = 'Failed';
      job.errorCode = status.errorCode;
      job.reason = status.reason;
      job.stage = status.stage ?? job.stage;
      return job;
    case 'Completed':
      if (status.receipt !== null) {
        // A forgetting job has no parts: its one Completed report carries the receipt. A replay of the log
        // forgets again and finds nothing; the first receipt, which says what was removed, stays (Completed is final).
        job.receipt = status.receipt;
        job.state = 'Completed';
        return job;
      }
      if (status.memoryId !== null && status.partIndex !== null) job.memoryIds[status.partIndex] = status.memoryId;
      break;
    case 'Processing':
      if (job.state === 'Accepted') job.state = 'Processing';
      break;
    case 'Accepted':
      break;
  }
  const completedParts = job.memoryIds.filter((id) => typeof id === 'string').length;
  if (job.partCount !== null && completedParts >= job.partCount) job.state = 'Completed';
  return job;
}

/** Several reports of one job merged in order into its record (at least one report). */
export function applyJobStatuses(current: JobRecord | null, reports: ReadonlyArray<{ status: JobStatus; at: number; requestId?: string | undefined }>): JobRecord {
  let job = current;
  for (const { status, at, requestId } of reports) job = applyJobStatus(job, status, at, requestId);
  if (!job) throw new Error('applyJobStatuses needs at least one report');
  return job;
}
