import { open, type Database, type RootDatabase } from 'lmdb';
import { compactAndClose, compactionPending, lmdbError, markForCompaction, MemoryServiceError } from '@memory/platform';
import { acceptedAtOf } from '@memory/contracts';
import type { JobRecord, JobStore } from '@memory/ports';

type JobKey = [tenantId: string, jobId: string];
const AFTER_ALL = new Uint8Array([0xff]);

/** What a change callback threw, carried out of the write transaction untouched. */
class ChangeFailed {
  constructor(readonly error: unknown) {}
}

/**
 * JobStore on LMDB, one table: [tenantId, jobId] -> JobRecord (msgpack). A tenant's key never reaches another
 * tenant's job, whatever the job id.
 *
 * update() runs read, change and write inside one LMDB write transaction. LMDB has one writer at a time (across
 * processes too) and lmdb-js runs queued transaction callbacks one after another, each seeing the writes of those
 * before it, so concurrent updates of one job apply in turn and none is lost. The change runs before anything is
 * written, so a change that throws leaves the job as it was.
 *
 * overlappingSync is off, so a commit is fsynced before its promise resolves; update() also awaits `flushed`.
 */
export class EmbeddedJobStore implements JobStore {
  private closed = false;

  private constructor(
    private readonly dir: string,
    private readonly env: RootDatabase,
    private readonly jobs: Database<JobRecord, JobKey>,
  ) {}

  static openEnv(dir: string): RootDatabase {
    return open({ path: dir, overlappingSync: false, maxDbs: 2 });
  }

  static open(dir: string): EmbeddedJobStore {
    try {
      const env = EmbeddedJobStore.openEnv(dir);
      return new EmbeddedJobStore(dir, env, env.openDB<JobRecord, JobKey>('jobs', { sharedStructuresKey: Symbol.for('structures') }));
    } catch (error) {
      throw lmdbError('JOBS', 'job store', 'open', error);
    }
  }

  async get(tenantId: string, jobId: string): Promise<JobRecord | null> {
    this.checkOpen();
    checkKey(tenantId, jobId);
    try {
      return this.jobs.get([tenantId, jobId]) ?? null;
    } catch (error) {
      throw lmdbError('JOBS', 'job store', 'read', error);
    }
  }

  async update(tenantId: string, jobId: string, change: (current: JobRecord | null) => JobRecord): Promise<JobRecord> {
    this.checkOpen();
    checkKey(tenantId, jobId);
    const key: JobKey = [tenantId, jobId];
    let outcome: JobRecord | ChangeFailed;
    try {
      outcome = await this.env.transaction(() => {
        let next: JobRecord;
        try {
          next = change(this.jobs.get(key) ?? null);
        } catch (error) {
          return new ChangeFailed(error);
        }
        if (next?.tenantId !== tenantId || next.jobId !== jobId) {
          return new ChangeFailed(
            new MemoryServiceError('JOBS.INVALID_RECORD', `a change of job ${tenantId}/${jobId} returned a record for ${String(next?.tenantId)}/${String(next?.jobId)}`),
          );
        }
        this.jobs.put(key, next);
        return next;
      });
      await this.env.flushed;
    } catch (error) {
      throw lmdbError('JOBS', 'job store', 'write', error);
    }
    if (outcome instanceof ChangeFailed) throw outcome.error;
    return outcome;
  }

  async forget(tenantId: string, jobIds: string[]): Promise<number> {
    this.checkOpen();
    for (const jobId of jobIds) checkKey(tenantId, jobId);
    return this.write(() => {
      let removed = 0;
      for (const jobId of new Set(jobIds)) {
        if (!this.jobs.doesExist([tenantId, jobId])) continue;
        this.jobs.remove([tenantId, jobId]);
        removed++;
      }
      return removed;
    });
  }

  async erase(scope: { tenantId: string; endUserId: string | null }, before: number): Promise<number> {
    this.checkOpen();
    checkKey(scope.tenantId, 'erase');
    // Job keys are [tenant, jobId]: an end user's jobs are found by reading the tenant's records.
    return this.write(() => {
      let removed = 0;
      for (const { key, value } of this.jobs.getRange({ start: [scope.tenantId], end: [scope.tenantId, AFTER_ALL] })) {
        if (scope.endUserId !== null && value.endUserId !== scope.endUserId) continue;
        if ((acceptedAtOf(value.jobId) ?? value.acceptedAt) >= before) continue;
        this.jobs.remove(key as JobKey);
        removed++;
      }
      return removed;
    });
  }

  async countByState(): Promise<Partial<Record<JobRecord['state'], number>>> {
    this.checkOpen();
    const counts: Partial<Record<JobRecord['state'], number>> = {};
    try {
      for (const job of this.jobs.getRange().map(({ value }) => value)) counts[job.state] = (counts[job.state] ?? 0) + 1;
    } catch (error) {
      throw lmdbError('JOBS', 'job store', 'read', error);
    }
    return counts;
  }

  private async write(body: () => number): Promise<number> {
    try {
      const result = await this.env.transaction(body);
      await this.env.flushed;
      if (result > 0) markForCompaction(this.dir);
      return result;
    } catch (error) {
      throw lmdbError('JOBS', 'job store', 'write', error);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Forgotten job records must not stay in freed pages: compact on close when something was removed.
    if (compactionPending(this.dir)) await compactAndClose(this.env, this.dir).catch((error: unknown) => Promise.reject(lmdbError('JOBS', 'job store', 'compaction', error)));
    else await this.env.close();
  }

  private checkOpen(): void {
    if (this.closed) throw new MemoryServiceError('JOBS.CLOSED', 'the job store is closed');
  }
}

function checkKey(tenantId: string, jobId: string): void {
  if (typeof tenantId !== 'string' || tenantId === '' || typeof jobId !== 'string' || jobId === '') {
    throw new MemoryServiceError('JOBS.INVALID_ARGUMENT', 'a job is addressed by a non-empty tenantId and jobId');
  }
}
