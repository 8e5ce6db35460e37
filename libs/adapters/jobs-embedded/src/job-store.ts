import { open, type Database, type RootDatabase } from 'lmdb';
import { closeCompactingIfMarked, handleFailedCommits, lmdbError, lmdbWriteError, markForCompaction, MemoryServiceError } from '@memory/platform';
import { acceptedAtOf } from '@memory/contracts';
import type { JobRecord, JobStore } from '@memory/ports';

type JobKey = [tenantId: string, jobId: string];
type StateCounts = Partial<Record<JobRecord['state'], number>>;
const AFTER_ALL = new Uint8Array([0xff]);
/** The one record of the `job-states` table: how many jobs are in each state. */
const TALLY = 'tally';

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
 *
 * The memory_jobs metric asks for the count of jobs per state on every scrape; counting the records then reads all
 * of them on the main thread, which grows with every job ever accepted. A tally kept in the same write transactions
 * as the records answers at once and cannot drift from them; a data folder made before it is counted once at open.
 */
export class EmbeddedJobStore implements JobStore {
  private closed = false;

  private constructor(
    private readonly dir: string,
    private readonly env: RootDatabase,
    private readonly jobs: Database<JobRecord, JobKey>,
    private readonly states: Database<StateCounts, string>,
  ) {}

  static openEnv(dir: string): RootDatabase {
    return handleFailedCommits(open({ path: dir, overlappingSync: false, maxDbs: 2 }));
  }

  static open(dir: string): EmbeddedJobStore {
    try {
      const env = EmbeddedJobStore.openEnv(dir);
      const store = new EmbeddedJobStore(dir, env, env.openDB<JobRecord, JobKey>('jobs', { sharedStructuresKey: Symbol.for('structures') }), env.openDB<StateCounts, string>({ name: 'job-states' }));
      store.tallyIfMissing();
      return store;
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
        const current = this.jobs.get(key) ?? null;
        let next: JobRecord;
        try {
          next = change(current);
        } catch (error) {
          return new ChangeFailed(error);
        }
        if (next?.tenantId !== tenantId || next.jobId !== jobId) {
          return new ChangeFailed(
            new MemoryServiceError('JOBS.INVALID_RECORD', `a change of job ${tenantId}/${jobId} returned a record for ${String(next?.tenantId)}/${String(next?.jobId)}`),
          );
        }
        this.jobs.put(key, next);
        if (current?.state !== next.state) this.count(current ? [current.state] : [], [next.state]);
        return next;
      });
      await this.env.flushed;
    } catch (error) {
      throw await lmdbWriteError('JOBS', 'job store', 'write', error, this.dir);
    }
    if (outcome instanceof ChangeFailed) throw outcome.error;
    return outcome;
  }

  async forget(tenantId: string, jobIds: string[]): Promise<number> {
    this.checkOpen();
    for (const jobId of jobIds) checkKey(tenantId, jobId);
    return this.remove(() => {
      const removed: JobRecord['state'][] = [];
      for (const jobId of new Set(jobIds)) {
        const job = this.jobs.get([tenantId, jobId]);
        if (!job) continue;
        this.jobs.remove([tenantId, jobId]);
        removed.push(job.state);
      }
      this.count(removed, []);
      return removed.length;
    });
  }

  async erase(scope: { tenantId: string; endUserId: string | null }, before: number): Promise<number> {
    this.checkOpen();
    checkKey(scope.tenantId, 'erase');
    // Job keys are [tenant, jobId]: an end user's jobs are found by reading the tenant's records.
    return this.remove(() => {
      const removed: JobRecord['state'][] = [];
      for (const { key, value } of this.jobs.getRange({ start: [scope.tenantId], end: [scope.tenantId, AFTER_ALL] })) {
        if (scope.endUserId !== null && value.endUserId !== scope.endUserId) continue;
        if ((acceptedAtOf(value.jobId) ?? value.acceptedAt) >= before) continue;
        this.jobs.remove(key as JobKey);
        removed.push(value.state);
      }
      this.count(removed, []);
      return removed.length;
    });
  }

  async countByState(): Promise<StateCounts> {
    this.checkOpen();
    try {
      const tally = this.states.get(TALLY) ?? {};
      return Object.fromEntries(Object.entries(tally).filter(([, count]) => count > 0));
    } catch (error) {
      throw lmdbError('JOBS', 'job store', 'read', error);
    }
  }

  /** Moves the tally by jobs leaving some states and entering others; called inside the write transaction. */
  private count(left: JobRecord['state'][], entered: JobRecord['state'][]): void {
    if (left.length === 0 && entered.length === 0) return;
    const tally = { ...(this.states.get(TALLY) ?? {}) };
    for (const state of left) tally[state] = (tally[state] ?? 0) - 1;
    for (const state of entered) tally[state] = (tally[state] ?? 0) + 1;
    this.states.put(TALLY, tally);
  }

  /** A data folder from before the tally, or a fresh one: count its records once. */
  private tallyIfMissing(): void {
    if (this.states.get(TALLY) !== undefined) return;
    this.env.transactionSync(() => {
      if (this.states.get(TALLY) !== undefined) return;
      const tally: StateCounts = {};
      for (const { value } of this.jobs.getRange()) tally[value.state] = (tally[value.state] ?? 0) + 1;
      this.states.put(TALLY, tally);
    });
  }

  /**
   * A write that removes records: the store is marked for compaction before it commits, so a crash right after the
   * commit still leaves the mark and forgotten records do not stay in freed pages.
   */
  private async remove(body: () => number): Promise<number> {
    try {
      await markForCompaction(this.dir);
      const result = await this.env.transaction(body);
      await this.env.flushed;
      return result;
    } catch (error) {
      throw await lmdbWriteError('JOBS', 'job store', 'write', error, this.dir);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Forgotten job records must not stay in freed pages: compact on close when something was removed.
    await closeCompactingIfMarked(this.env, this.dir, (error) => lmdbError('JOBS', 'job store', 'compaction', error));
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
