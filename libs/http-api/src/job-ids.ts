import { acceptedAtOf, createJobIdClock, type JobKind } from '@memory/contracts';
import { MemoryServiceError } from '@memory/platform';
import type { Keyring, Scope } from '@memory/ports';
import { endUserErased } from './accept-job.js';

/** A new job id of this kind for this end user, its own: no other process has issued it. */
export type IssueJobId = (kind: JobKind, scope: Scope) => Promise<{ jobId: string; acceptedAt: number }>;

/** Ids tried before giving up, each a millisecond later than the last. */
const ATTEMPTS = 10;

/**
 * Job ids are the interface's `<prefix>_<ms>_<endUserId>`, and a process's clock only keeps its own ids apart: two
 * edges taking one end user's requests in the same millisecond issue the same id, and the second memory would
 * overwrite the first (its id derives from the job's). So an id is made this process's own by creating its data
 * key, the key its content is sealed with anyway, before anything is stored under it: the store keeps the first key
 * of a subject, and a process whose key was not kept takes the next millisecond. No request more than before: the
 * key's write only comes earlier, and the records sealed next find it in the keyring.
 */
export function createJobIdIssuer(keys: Pick<Keyring, 'claim'>, clock = createJobIdClock()): IssueJobId {
  return async (kind, scope) => {
    for (let attempt = 1; ; attempt++) {
      const issued = clock(kind, scope.endUserId);
      const outcome = await keys.claim(scope.tenantId, scope.endUserId, issued.jobId);
      if (outcome === 'claimed') return issued;
      // An erasure issued elsewhere at a later millisecond already covers this one.
      if (outcome === 'forgotten') throw endUserErased(issued.jobId);
      if (attempt >= ATTEMPTS) {
        throw new MemoryServiceError('JOBS.ID_UNAVAILABLE', `${ATTEMPTS} job ids in a row were taken by other processes for this end user; retry`, { retriable: true });
      }
    }
  };
}

/**
 * The job a request accepts: the one it was given (named with its Idempotency-Key's claim, its own or an earlier
 * attempt's of the same request: see IdempotentRequest.newJobId), with its acceptedAt read back from the id, or else
 * a new one. Every route that creates a job takes its id this way, so a retry after an attempt whose append landed
 * though its answer was lost accepts that same job again rather than a second one.
 */
export function jobToAccept(issue: IssueJobId, kind: JobKind, scope: Scope, given: string | undefined): Promise<{ jobId: string; acceptedAt: number }> {
  const acceptedAt = given === undefined ? null : acceptedAtOf(given);
  return given !== undefined && acceptedAt !== null ? Promise.resolve({ jobId: given, acceptedAt }) : issue(kind, scope);
}
