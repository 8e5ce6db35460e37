import type { Client, estypes } from '@elastic/elasticsearch';
import { bulk } from './bulk.js';
import { call } from './errors.js';
import { acceptedAtOf } from '@memory/contracts';
import { MemoryServiceError } from '@memory/platform';
import type { JobRecord, JobStore } from '@memory/ports';
import type { SharedClient } from './client.js';
import { DelayedExpunge } from './delayed-expunge.js';
import { readDocument } from './documents.js';
import { GroupedUpdates } from './grouped-updates.js';
import { KeyLock } from './key-lock.js';
import { documentId } from './names.js';
import { checkJobKey } from './validate.js';

/**
 * JobStore on one index, one document per job, _id derived from (tenant, job id).
 *
 * update() is a read-modify-write under optimistic concurrency: read the job with its _seq_no and _primary_term
 * (a realtime read), apply the change, write with if_seq_no/if_primary_term (create for a new job); a writer that
 * lost the race reads again and re-applies its change to the newer record. Updates of different jobs that come
 * together share one read and one write request (GroupedUpdates). So concurrent updates of one
 * job apply in turn and none is lost, across processes too, and the change may run more than once: it must be a
 * function of the record it is given (applyJobStatus is, and its monotone merge makes re-applying harmless).
 * Within this process the updates of one job queue first (KeyLock), so they do not race each other at all.
 *
 * Why not a painless script: the merge would have to be written a second time in painless (and the node we run
 * locally has no painless module); the change function stays the one source of the job-state rules.
 *
 * Jobs are only ever read by id, and reads by id are realtime, so writes skip refreshes entirely.
 *
 * A job's record can name a file (a failure's reason), so the records forgetting deletes are expunged from the
 * index's files a delay later (DelayedExpunge), as memories are.
 */
export class ElasticsearchJobStore implements JobStore {
  private readonly client: Client;
  private readonly lock = new KeyLock();
  private readonly updates: GroupedUpdates<JobRecord>;
  private readonly expunge: DelayedExpunge;
  private closed = false;

  constructor(
    private readonly shared: SharedClient,
    private readonly index: string,
    expungeDelayMs: number,
  ) {
    this.client = shared.acquire();
    this.updates = new GroupedUpdates(this.client, 'JOBS', index);
    this.expunge = new DelayedExpunge(this.client, index, expungeDelayMs);
  }

  async get(tenantId: string, jobId: string): Promise<JobRecord | null> {
    this.checkOpen();
    checkJobKey(tenantId, jobId);
    const found = await readDocument<JobRecord>(this.client, 'JOBS', `read job ${tenantId}/${jobId}`, this.index, documentId(tenantId, jobId));
    return found && found.source.tenantId === tenantId && found.source.jobId === jobId ? found.source : null;
  }

  async update(tenantId: string, jobId: string, change: (current: JobRecord | null) => JobRecord, hint?: { likelyNew?: boolean }): Promise<JobRecord> {
    this.checkOpen();
    checkJobKey(tenantId, jobId);
    const id = documentId(tenantId, jobId);
    return this.lock.run(id, () =>
      this.updates.update(id, `update job ${tenantId}/${jobId}`, (current) => {
        // A throwing change propagates as it is, and nothing is written.
        const next = change(current);
        if (next?.tenantId !== tenantId || next.jobId !== jobId) {
          throw new MemoryServiceError('JOBS.INVALID_RECORD', `a change of job ${tenantId}/${jobId} returned a record for ${String(next?.tenantId)}/${String(next?.jobId)}`);
        }
        return next;
      }, hint),
    );
  }

  async forget(tenantId: string, jobIds: string[]): Promise<number> {
    this.checkOpen();
    const unique = [...new Set(jobIds)];
    for (const jobId of unique) checkJobKey(tenantId, jobId);
    if (unique.length === 0) return 0;
    // A failed item (429 rejected, 5xx, a write block) raises the mapped JOBS.* error, retriable when the item is, so
    // a forget never reports records deleted that survive; a job already gone (not_found, no error) deletes nothing.
    const items = await bulk(this.client, 'JOBS', `forget ${unique.length} jobs of ${tenantId}`, unique.map((jobId) => ({ delete: { _index: this.index, _id: documentId(tenantId, jobId) } })), false);
    const deleted = items.filter((item) => item.result === 'deleted').length;
    if (deleted > 0) this.expunge.schedule();
    return deleted;
  }

  async erase(scope: { tenantId: string; endUserId: string | null }, before: number): Promise<number> {
    this.checkOpen();
    checkJobKey(scope.tenantId, 'erase');
    const filter: estypes.QueryDslQueryContainer[] = [{ term: { tenantId: scope.tenantId } }];
    if (scope.endUserId !== null) filter.push({ term: { endUserId: scope.endUserId } });
    const what = `erase the jobs of ${scope.tenantId}/${scope.endUserId ?? '*'}`;
    // The accept time is read from the job id, as every store reads it (the record's acceptedAt is the log's time).
    const erased: string[] = [];
    let after: estypes.SortResults | undefined;
    await call('JOBS', `${what}: refresh`, () => this.client.indices.refresh({ index: this.index }));
    for (;;) {
      const page = await call('JOBS', what, () =>
        this.client.search<JobRecord>({ index: this.index, size: 1_000, _source: ['jobId', 'acceptedAt'], query: { bool: { filter } }, sort: [{ jobId: 'asc' }], ...(after ? { search_after: after } : {}) }),
      );
      for (const hit of page.hits.hits) {
        const job = hit._source!;
        if ((acceptedAtOf(job.jobId) ?? job.acceptedAt) < before) erased.push(job.jobId);
      }
      if (page.hits.hits.length < 1_000) break;
      after = page.hits.hits[page.hits.hits.length - 1]!.sort;
    }
    let removed = 0;
    for (let i = 0; i < erased.length; i += 1_000) removed += await this.forget(scope.tenantId, erased.slice(i, i + 1_000));
    return removed;
  }

  async countByState(): Promise<Partial<Record<JobRecord['state'], number>>> {
    this.checkOpen();
    const response = await call('JOBS', 'count jobs by state', () =>
      this.client.search({ index: this.index, size: 0, aggs: { states: { terms: { field: 'state', size: 10 } } } }),
    );
    const buckets = (response.aggregations?.['states'] as estypes.AggregationsStringTermsAggregate | undefined)?.buckets;
    const counts: Partial<Record<JobRecord['state'], number>> = {};
    for (const bucket of Array.isArray(buckets) ? buckets : []) counts[String(bucket.key) as JobRecord['state']] = bucket.doc_count;
    return counts;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.expunge.cancel();
    await this.shared.release();
  }

  private checkOpen(): void {
    if (this.closed) throw new MemoryServiceError('JOBS.CLOSED', 'the job store is closed');
  }
}
