import { isJobIdOf, jobIdOfMemory } from '@memory/contracts';
import type { Scope, VectorStore } from '@memory/ports';
import { errorCode, RequestError } from '@memory/platform';
import { acceptJob, END_USER_ERASED, type AcceptJobDeps } from './accept-job.js';
import { jobToAccept, type IssueJobId } from './job-ids.js';
import type { UpdateRequest } from './validation.js';

export interface UpdatingDeps extends AcceptJobDeps {
  /** The memory as stored now: what a change is applied to. */
  vectors: VectorStore;
  issueJobId: IssueJobId;
}

/** The same answer GET /v1/memories/{id} gives, so an update tells nothing more about ids that are not the caller's. */
export const memoryNotFound = (id: string) => new RequestError(404, 'MEMORY.NOT_FOUND', `no memory ${JSON.stringify(id)} for this end user`);

/** Seconds a client waits before asking again for a memory still being ingested. */
const NOT_READY_RETRY_AFTER_S = 1;

/**
 * The correction use case (PATCH /v1/memories/{id}). The new version is a text ingestion of the memory's fields with
 * the changes applied, published as an ingest request that names the memory it rewrites: it runs through the whole
 * pipeline (times resolved against the memory's own reference time unless the request moves it) and the dual-writer
 * replaces the memory under the same id, numbering the version when it writes it. Its content is sealed with the
 * memory's key (sealing.ts), so deleting the memory forgets every version.
 */
export function createUpdating(deps: UpdatingDeps) {
  return {
    /** A new update job id, for a request that names its job before accepting it (an idempotent one). */
    newJobId: async (scope: Scope) => (await deps.issueJobId('update', scope)).jobId,
    /**
     * Accepts the change as an update job: `givenJobId` when the request named its job with its Idempotency-Key's
     * claim (its own, or an earlier attempt's of the same request whose append may have landed: the pipeline then
     * writes that job's version once), else a new one.
     */
    async updateMemory(scope: Scope, memoryId: string, timeZone: string | null, change: UpdateRequest, givenJobId?: string) {
      const madeBy = jobIdOfMemory(memoryId);
      if (madeBy === null || !isJobIdOf(madeBy, scope.endUserId)) throw memoryNotFound(memoryId);
      const job = await deps.jobs.get(scope.tenantId, madeBy);
      if (job && job.endUserId === scope.endUserId && (job.state === 'Accepted' || job.state === 'Processing')) {
        throw new RequestError(409, 'MEMORY.NOT_READY', `memory ${memoryId} is still being ingested (job ${madeBy} is ${job.state}); retry once the job is Completed`, { jobId: madeBy, retryAfterSeconds: NOT_READY_RETRY_AFTER_S });
      }
      const [memory] = await deps.vectors.getWithoutVectors(scope, [memoryId]);
      if (!memory) throw memoryNotFound(memoryId);
      if (memory.kind !== 'text') {
        throw new RequestError(422, 'MEMORY.NOT_EDITABLE', `memory ${memoryId} is ${memory.kind === 'image' ? 'an image' : 'a page of a PDF'}: only text memories can be corrected; delete it and ingest it again instead`, { kind: memory.kind });
      }
      try {
        const { jobId, acceptedAt } = await jobToAccept(deps.issueJobId, 'update', scope, givenJobId);
        return await acceptJob(deps, 'ingestRequested', {
          jobId, ...scope, kind: 'text', acceptedAt,
          content: change.content ?? memory.originalContent,
          sourceTimestamp: change.timestamp ?? memory.createdAt,
          timeZone,
          userContext: change.userContext === undefined ? memory.userContext : change.userContext,
          blob: null,
          metadata: change.metadata === undefined ? (memory.metadata ?? null) : change.metadata,
          memoryId,
          cause: 'update',
        });
      } catch (error) {
        // Deleted between the read and the publish: its key is destroyed, so nothing was published (acceptJob says
        // so as REQUEST.END_USER_ERASED; here it is the memory that is gone).
        if (errorCode(error) === END_USER_ERASED) throw memoryNotFound(memoryId);
        throw error;
      }
    },
  };
}

export type Updating = ReturnType<typeof createUpdating>;
