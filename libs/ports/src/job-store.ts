import type { JobState } from '@memory/contracts';

/** What GET /v1/jobs/{jobId} shows. */
export interface JobRecord {
  jobId: string;
  tenantId: string;
  endUserId: string;
  state: JobState;
  /** The last stage that reported. */
  stage: string | null;
  partCount: number | null;
  /** Memory ids committed so far, by part index. */
  memoryIds: string[];
  errorCode: string | null;
  reason: string | null;
  /** Log time of the first and the latest status, ms epoch. */
  acceptedAt: number;
  updatedAt: number;
}

export interface JobStore {
  get(tenantId: string, jobId: string): Promise<JobRecord | null>;
  /** Read-modify-write of one job, atomic per job id. */
  update(tenantId: string, jobId: string, change: (current: JobRecord | null) => JobRecord): Promise<JobRecord>;
  close(): Promise<void>;
}
