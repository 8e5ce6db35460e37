import { open, type Database, type RootDatabase } from 'lmdb';
import { MemoryServiceError } from '@memory/platform';
import type { JobRecord, JobStore } from '@memory/ports';
import { storageError } from './storage-error.js';

type JobKey = [tenantId: string, jobId: string];

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
    private readonly env: RootDatabase,
    private readonly jobs: Database<JobRecord, JobKey>,
  ) {}

  static open(dir: string): EmbeddedJobStore {
    try {
      const env = open({ path: dir, overlappingSync: false, maxDbs: 2 });
      return new EmbeddedJobStore(env, env.openDB<JobRecord, JobKey>('jobs', { sharedStructuresKey: Symbol.for('structures') }));
    } catch (error) {
      throw storageError('JOBS', 'job store', 'open', error);
    }
  }

  async get(tenantId: string, jobId: string): Promise<JobRecord | null> {
    this.checkOpen();
    checkKey(tenantId, jobId);
    try {
      return this.jobs.get([tenantId, jobId]) ?? null;
    } catch (error) {
      throw storageError('JOBS', 'job store', 'read', error);
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
      throw storageError('JOBS', 'job store', 'write', error);
    }
    if (outcome instanceof ChangeFailed) throw outcome.error;
    return outcome;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.env.close();
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
