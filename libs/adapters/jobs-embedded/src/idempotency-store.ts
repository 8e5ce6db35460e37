import { randomUUID } from 'node:crypto';
import { open, type Database, type Key, type RootDatabase } from 'lmdb';
import { closeCompactingIfMarked, handleFailedCommits, lmdbError, lmdbWriteError, markForCompaction, MemoryServiceError } from '@memory/platform';
import { abandonedJobId, jobIdOfRecord, type ClaimRequest, type ClaimResult, type IdempotencyClaim, type IdempotencyStore, type Scope, type StoredResponse } from '@memory/ports';

type RecordKey = [tenantId: string, endUserId: string, key: string];

interface IdempotencyRecord {
  fingerprint: string;
  /** Who holds an in-progress claim; null once completed. */
  token: string | null;
  leaseUntil: number;
  expiresAt: number;
  response: StoredResponse | null;
  /**
   * The job the claim's request creates (ClaimRequest.jobId), or once answered the one its answer names
   * (jobIdOfRecord); absent in records written before it was kept.
   */
  jobId?: string | null;
}

// ordered-binary separates array elements by a 0 byte that strings never contain, so 0xff after a prefix sorts
// above every key under that prefix and below the next one.
const AFTER_ALL = new Uint8Array([0xff]);
const SWEEP_BATCH = 1_000;

/** Whether a record still binds its key at `now`: not expired, and either completed or within its lease. */
const isLive = (record: IdempotencyRecord | undefined, now: number): record is IdempotencyRecord =>
  record !== undefined && record.expiresAt > now && (record.response !== null || record.leaseUntil > now);

/**
 * IdempotencyStore on LMDB, one table: [tenantId, endUserId, key] -> record (msgpack), in an environment of its
 * own. A claim is one write transaction (read, decide, write): LMDB has one writer at a time, across processes too,
 * so of concurrent claims of one key exactly one finds it free. Commits are fsynced before they resolve
 * (overlappingSync off), so a claim or a stored response survives a crash once acknowledged.
 */
export class EmbeddedIdempotencyStore implements IdempotencyStore {
  private closed = false;

  private constructor(
    private readonly dir: string,
    private readonly env: RootDatabase,
    private readonly records: Database<IdempotencyRecord, Key>,
  ) {}

  static openEnv(dir: string): RootDatabase {
    return handleFailedCommits(open({ path: dir, overlappingSync: false, maxDbs: 2 }));
  }

  static open(dir: string): EmbeddedIdempotencyStore {
    try {
      const env = EmbeddedIdempotencyStore.openEnv(dir);
      return new EmbeddedIdempotencyStore(dir, env, env.openDB<IdempotencyRecord, Key>('idempotency', {}));
    } catch (error) {
      throw lmdbError('IDEMPOTENCY', 'idempotency store', 'open', error);
    }
  }

  claim(scope: Scope, key: string, request: ClaimRequest): Promise<ClaimResult> {
    const id = recordKey(scope, key);
    return this.write('claim', () => {
      const current = this.records.get(id);
      if (isLive(current, request.now)) {
        return current.response
          ? { state: 'completed', fingerprint: current.fingerprint, response: current.response }
          : { state: 'in-progress', fingerprint: current.fingerprint };
      }
      const token = randomUUID();
      const earlierJobId = abandonedJobId(current, request);
      this.records.put(id, { fingerprint: request.fingerprint, token, leaseUntil: request.now + request.leaseMs, expiresAt: request.now + request.ttlMs, response: null, jobId: earlierJobId ?? request.jobId ?? null });
      return { state: 'claimed', claim: { token }, earlierJobId };
    });
  }

  complete(scope: Scope, key: string, claim: IdempotencyClaim, response: StoredResponse, options: { now: number; ttlMs: number }): Promise<boolean> {
    const id = recordKey(scope, key);
    return this.write('complete', () => {
      const current = this.records.get(id);
      if (current?.token !== claim.token) return false;
      this.records.put(id, { ...current, token: null, response, expiresAt: options.now + options.ttlMs, jobId: jobIdOfRecord({ jobId: current.jobId, response }) });
      return true;
    });
  }

  async release(scope: Scope, key: string, claim: IdempotencyClaim): Promise<void> {
    const id = recordKey(scope, key);
    await this.write('release', () => {
      if (this.records.get(id)?.token === claim.token) this.records.remove(id);
    });
  }

  async abandon(scope: Scope, key: string, claim: IdempotencyClaim, now: number): Promise<void> {
    const id = recordKey(scope, key);
    await this.write('abandon', () => {
      const current = this.records.get(id);
      if (current?.token === claim.token) this.records.put(id, { ...current, token: null, leaseUntil: now });
    });
  }

  /**
   * Finds the expired records in a read snapshot, then removes them a batch per write transaction (each checked
   * again inside it), so a sweep of a large table never holds the writer lock that claims wait for.
   */
  async removeExpired(now: number): Promise<number> {
    this.checkOpen();
    let expired: Key[];
    try {
      expired = [...this.records.getRange({}).filter(({ value }) => value.expiresAt <= now).map(({ key }) => key)];
    } catch (error) {
      throw lmdbError('IDEMPOTENCY', 'idempotency store', 'read expired records', error);
    }
    let removed = 0;
    for (let start = 0; start < expired.length; start += SWEEP_BATCH) {
      const batch = expired.slice(start, start + SWEEP_BATCH);
      removed += await this.write('remove expired records', () => {
        let count = 0;
        for (const key of batch) {
          const record = this.records.get(key);
          if (record === undefined || record.expiresAt > now) continue;
          this.records.remove(key);
          count += 1;
        }
        return count;
      });
    }
    return removed;
  }

  forgetJobs(scope: Scope, jobIds: string[]): Promise<number> {
    checkScope(scope);
    const forgotten = new Set(jobIds);
    return this.removeRange(`forget the records of ${forgotten.size} job(s) of ${scope.tenantId}/${scope.endUserId}`, userRange(scope), (record) => {
      const jobId = jobIdOfRecord(record);
      return jobId !== null && forgotten.has(jobId);
    });
  }

  forgetUser(scope: Scope): Promise<number> {
    checkScope(scope);
    return this.removeRange(`forget ${scope.tenantId}/${scope.endUserId}`, userRange(scope));
  }

  forgetTenant(tenantId: string): Promise<number> {
    checkScope({ tenantId, endUserId: '-' });
    return this.removeRange(`forget tenant ${tenantId}`, { start: [tenantId], end: [tenantId, AFTER_ALL] });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // A forgotten end user's records (their requests' fingerprints, their jobs' ids) must not stay in freed pages.
    await closeCompactingIfMarked(this.env, this.dir, (error) => lmdbError('IDEMPOTENCY', 'idempotency store', 'compaction', error));
  }

  /**
   * Removes, in one transaction, the records of one key range (one end user's or one tenant's), or only those of it
   * that `matches` picks; returns how many.
   */
  private async removeRange(what: string, range: { start: Key; end: Key }, matches?: (record: IdempotencyRecord) => boolean): Promise<number> {
    // Marked before the commit, so a crash right after it still leaves the mark.
    await this.markForgetting(what);
    return this.write(what, () => {
      // Read to the end before removing, so the cursor never walks a range it is changing.
      const keys = matches
        ? [...this.records.getRange(range).filter(({ value }) => matches(value)).map(({ key }) => key)]
        : [...this.records.getKeys(range)];
      for (const key of keys) this.records.remove(key);
      return keys.length;
    });
  }

  /** Forgotten records must not stay in freed pages: the store is compacted when it closes, or next opens. */
  private async markForgetting(what: string): Promise<void> {
    this.checkOpen();
    await markForCompaction(this.dir).catch((error: unknown) => Promise.reject(lmdbError('IDEMPOTENCY', 'idempotency store', what, error)));
  }

  private checkOpen(): void {
    if (this.closed) throw new MemoryServiceError('IDEMPOTENCY.CLOSED', 'the idempotency store is closed');
  }

  private async write<T>(what: string, body: () => T): Promise<T> {
    this.checkOpen();
    try {
      return await this.env.transaction(body);
    } catch (error) {
      throw await lmdbWriteError('IDEMPOTENCY', 'idempotency store', what, error, this.dir);
    }
  }
}

function checkScope(scope: Scope): void {
  if (typeof scope?.tenantId !== 'string' || scope.tenantId === '' || typeof scope.endUserId !== 'string' || scope.endUserId === '') {
    throw new MemoryServiceError('IDEMPOTENCY.INVALID_ARGUMENT', 'idempotency records are scoped by a non-empty tenantId and endUserId');
  }
}

/** The key range of every record of one end user. */
function userRange(scope: Scope): { start: Key; end: Key } {
  return { start: [scope.tenantId, scope.endUserId], end: [scope.tenantId, scope.endUserId, AFTER_ALL] };
}

function recordKey(scope: Scope, key: string): RecordKey {
  checkScope(scope);
  if (typeof key !== 'string' || key === '') throw new MemoryServiceError('IDEMPOTENCY.INVALID_ARGUMENT', 'an idempotency key is a non-empty string');
  return [scope.tenantId, scope.endUserId, key];
}
