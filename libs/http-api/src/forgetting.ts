import { contentKeyId, isJobIdOf, jobIdOfMemory, type ForgetRequested } from '@memory/contracts';
import type { Keyring, Scope } from '@memory/ports';
import { RequestError } from '@memory/platform';
import { acceptJob, type AcceptJobDeps } from './accept-job.js';
import { jobToAccept, type IssueJobId } from './job-ids.js';

export interface ForgettingDeps extends AcceptJobDeps {
  keys: AcceptJobDeps['keys'] & Pick<Keyring, 'forget' | 'erase'>;
  issueJobId: IssueJobId;
}

/**
 * The forgetting use case. The data keys of what is forgotten are destroyed first, durably, before the request is
 * published and acknowledged: from then on no stage can read that content from the log nor write it sealed again,
 * so a memory still in the pipeline never becomes searchable. The forgetter then removes what the stores hold.
 */
export function createForgetting(deps: ForgettingDeps) {
  // A job named with an Idempotency-Key's claim (an earlier attempt's of the same request) keeps its acceptedAt, and
  // with it an erasure's boundary: the retry repeats that forgetting rather than accepting a second, later one.
  const request = async (scope: Scope, target: Pick<ForgetRequested, 'target' | 'memoryId' | 'targetJobId'>, destroy: (acceptedAt: number) => Promise<number>, givenJobId: string | undefined) => {
    const { jobId, acceptedAt } = await jobToAccept(deps.issueJobId, 'forget', scope, givenJobId);
    const keysDestroyed = await destroy(acceptedAt);
    return acceptJob(deps, 'forgetRequested', { jobId, ...scope, ...target, acceptedAt, keysDestroyed });
  };

  return {
    /** A new forget job id, for a request that names its job before accepting it (an idempotent one). */
    newJobId: async (scope: Scope) => (await deps.issueJobId('forget', scope)).jobId,
    /** One memory. An id that is not one of this end user's memory ids can never name a memory: 404, as for GET. */
    forgetMemory(scope: Scope, memoryId: string, givenJobId?: string) {
      const jobId = jobIdOfMemory(memoryId);
      if (jobId === null || !isJobIdOf(jobId, scope.endUserId)) throw new RequestError(404, 'MEMORY.NOT_FOUND', `no memory ${memoryId} for this end user`);
      return request(scope, { target: 'memory', memoryId, targetJobId: null }, () => deps.keys.forget(scope, [contentKeyId({ jobId, memoryId })]), givenJobId);
    },
    /** Every memory a job made (a PDF's pages, an image), its files and its record. */
    forgetJob(scope: Scope, targetJobId: string, givenJobId?: string) {
      if (!isJobIdOf(targetJobId, scope.endUserId)) {
        throw new RequestError(400, 'FORGET.INVALID_JOB_ID', `job_id must be a job id of this end user (job_, img_job_ or doc_job_, a millisecond time and the end user id), got ${JSON.stringify(targetJobId)}`);
      }
      return request(scope, { target: 'job', memoryId: null, targetJobId }, () => deps.keys.forget(scope, [targetJobId]), givenJobId);
    },
    /** Everything of one end user accepted before this request. */
    eraseUser(scope: Scope, givenJobId?: string) {
      return request(scope, { target: 'user', memoryId: null, targetJobId: null }, (acceptedAt) => deps.keys.erase(scope, acceptedAt), givenJobId);
    },
  };
}

export type Forgetting = ReturnType<typeof createForgetting>;
