import type { ForgetReceipt, ForgetTarget, JobState } from '@memory/contracts';

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
  /** The X-Request-Id of the request that accepted the job (absent on jobs recorded before request ids existed). */
  requestId?: string | null;
  /** A forgetting job's receipt, once Completed. */
  receipt?: ForgetReceipt | null;
  /** What a forgetting job forgets; kept by the webhook dispatcher's projection, which says memory.deleted or user.erased. */
  forget?: { target: ForgetTarget; memoryId: string | null; targetJobId: string | null } | null;
}

export interface JobStore {
  get(tenantId: string, jobId: string): Promise<JobRecord | null>;
  /**
   * Read-modify-write of one job, atomic per job id. `likelyNew`: the caller has just made the job (the edge's
   * Accepted record), so a store may try creating it without reading first; the result is the same either way.
   */
  update(tenantId: string, jobId: string, change: (current: JobRecord | null) => JobRecord, hint?: { likelyNew?: boolean }): Promise<JobRecord>;
  /** Removes these jobs' records; returns how many existed. */
  forget(tenantId: string, jobIds: string[]): Promise<number>;
  /**
   * Removes the records of an end user's jobs (every end user's, with endUserId null) accepted before `before`,
   * ms epoch; returns how many existed.
   */
  erase(scope: { tenantId: string; endUserId: string | null }, before: number): Promise<number>;
  /** How many jobs are in each state, over every tenant: the memory_jobs metric (a state with none may be absent). */
  countByState(): Promise<Partial<Record<JobState, number>>>;
  close(): Promise<void>;
}
