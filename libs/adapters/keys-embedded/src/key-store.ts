import { mkdir } from 'node:fs/promises';
import { open, type Database, type RootDatabase } from 'lmdb';
import { compactAndClose, compactionPending, finishPendingCompaction, handleFailedCommits, lmdbError, lmdbWriteError, markForCompaction, MemoryServiceError } from '@memory/platform';
import { jobIdOfMemory, memoryIdPrefixOf } from '@memory/contracts';
import { erasureCovers, erasureDestroys, tombstonesCovering, type DataKeyStore, type KeyRequest, type KeySubject, type Scope } from '@memory/ports';
import { AccessGate } from './access-gate.js';

type SubjectKey = [tenantId: string, endUserId: string, keyId: string];
/** An erasure of one end user, or of a whole tenant when endUserId is '' (end user ids are never empty). */
type ErasureKey = [tenantId: string, endUserId: string];
const WHOLE_TENANT = '';
const AFTER_ALL = new Uint8Array([0xff]);

const storageError = (operation: string, cause: unknown) => lmdbError('KEYS', 'key store', operation, cause);

/**
 * DataKeyStore on LMDB, three tables: keys [tenant, user, keyId] -> 32 bytes; tombstones [tenant, user, keyId] ->
 * when forgotten; erasures [tenant, user or ''] -> the accept time before which everything is forgotten.
 *
 * LMDB copies pages on write and leaves freed pages as they were, so a destroyed key would stay readable in the
 * file until its page is reused. scrub() (after a batch of forgetting) and close() copy the environment with
 * compaction (only live pages) and the copy replaces the file, all operations waiting meanwhile. The table is small
 * (about 100 bytes a subject), so the copy is quick.
 */
export class EmbeddedKeyStore implements DataKeyStore {
  private env!: RootDatabase;
  private keys!: Database<Buffer, SubjectKey>;
  private tombstones!: Database<number, SubjectKey>;
  private erasures!: Database<number, ErasureKey>;
  private readonly gate = new AccessGate();
  private nextScrub: Promise<void> | null = null;
  private closed = false;

  private constructor(private readonly dir: string) {
    this.openEnv();
  }

  static async open(dir: string): Promise<EmbeddedKeyStore> {
    await mkdir(dir, { recursive: true });
    await finishPendingCompaction(dir, () => handleFailedCommits(open({ path: dir, overlappingSync: false, maxDbs: 4 })));
    return new EmbeddedKeyStore(dir);
  }

  private openEnv(): void {
    try {
      this.env = handleFailedCommits(open({ path: this.dir, overlappingSync: false, maxDbs: 4 }));
      this.keys = this.env.openDB('keys', { encoding: 'binary' });
      this.tombstones = this.env.openDB('tombstones', {});
      this.erasures = this.env.openDB('erasures', {});
    } catch (error) {
      throw storageError('open', error);
    }
  }

  get(scope: Scope, keyIds: string[]): Promise<Map<string, Buffer>> {
    return this.shared(async () => {
      const found = new Map<string, Buffer>();
      for (const keyId of keyIds) {
        const key = this.keys.get([scope.tenantId, scope.endUserId, keyId]);
        if (key) found.set(keyId, Buffer.from(key));
      }
      return found;
    });
  }

  create(requests: KeyRequest[]): Promise<Array<Buffer | null>> {
    return this.shared(() =>
      this.durable(() =>
        requests.map(({ scope, keyId, key }) => {
          if (this.isForgotten(scope, keyId)) return null;
          const id: SubjectKey = [scope.tenantId, scope.endUserId, keyId];
          const existing = this.keys.get(id);
          if (existing) return Buffer.from(existing);
          this.keys.put(id, key);
          return key;
        }),
      ),
    );
  }

  forget(scope: Scope, keyIds: string[]): Promise<number> {
    return this.deleting(() =>
      this.durable(() => {
        let count = 0;
        for (const keyId of new Set(keyIds)) {
          const id: SubjectKey = [scope.tenantId, scope.endUserId, keyId];
          const parts = memoryIdPrefixOf(keyId);
          const partKeys = [...this.keys.getKeys({ start: [scope.tenantId, scope.endUserId, parts], end: [scope.tenantId, scope.endUserId, `${parts}\uffff`] })] as SubjectKey[];
          for (const key of [id, ...partKeys.filter((key) => jobIdOfMemory(key[2]) === keyId)]) {
            if (!this.keys.doesExist(key)) continue;
            this.keys.remove(key);
            count++;
          }
          if (this.tombstones.get(id) === undefined) this.tombstones.put(id, Date.now());
        }
        return count;
      }),
    );
  }

  erase(scope: { tenantId: string; endUserId: string | null }, before: number): Promise<number> {
    return this.deleting(() =>
      this.durable(() => {
        const erasure: ErasureKey = [scope.tenantId, scope.endUserId ?? WHOLE_TENANT];
        this.erasures.put(erasure, Math.max(before, this.erasures.get(erasure) ?? 0));
        const start = scope.endUserId === null ? [scope.tenantId] : [scope.tenantId, scope.endUserId];
        const covered = [...this.keys.getKeys({ start, end: [...start, AFTER_ALL] })].filter((id) => erasureDestroys((id as SubjectKey)[2], before));
        for (const id of covered) this.keys.remove(id as SubjectKey);
        return covered.length;
      }),
    );
  }

  forgotten(scope: Scope, keyIds: string[]): Promise<Set<string>> {
    return this.shared(async () => new Set(keyIds.filter((keyId) => this.isForgotten(scope, keyId))));
  }

  erasedAmong(subjects: KeySubject[]): Promise<boolean[]> {
    return this.shared(async () => subjects.map(({ scope, keyId }) => this.isErased(scope, keyId)));
  }

  async *entries(): AsyncIterable<{ scope: Scope; keyId: string; key: Buffer }> {
    const all = await this.shared(async () => [...this.keys.getRange({})].map(({ key, value }) => ({ id: key as SubjectKey, key: Buffer.from(value) })));
    for (const { id, key } of all) yield { scope: { tenantId: id[0], endUserId: id[1] }, keyId: id[2], key };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.gate.exclusive(() => (compactionPending(this.dir) ? this.compact() : this.env.close()));
  }

  private isForgotten(scope: Scope, keyId: string): boolean {
    return tombstonesCovering(keyId).some((id) => this.tombstones.get([scope.tenantId, scope.endUserId, id]) !== undefined) || this.isErased(scope, keyId);
  }

  private isErased(scope: Scope, keyId: string): boolean {
    return [scope.endUserId, WHOLE_TENANT].some((user) => {
      const before = this.erasures.get([scope.tenantId, user]);
      return before !== undefined && erasureCovers(keyId, before);
    });
  }

  /**
   * Rewrites the file with its live pages only, when something was destroyed since the last rewrite: destroyed keys
   * leave no bytes behind. Calls that arrive while one runs share the next one.
   */
  scrub(): Promise<void> {
    if (this.closed) return Promise.reject(new MemoryServiceError('KEYS.CLOSED', 'the key store is closed'));
    if (!this.nextScrub) {
      this.nextScrub = this.gate.exclusive(async () => {
        this.nextScrub = null;
        if (!compactionPending(this.dir)) return;
        await this.compact();
      });
    }
    return this.nextScrub;
  }

  /** Inside the gate's exclusive turn: no other operation uses the environment while it is swapped. */
  private async compact(): Promise<void> {
    try {
      await compactAndClose(this.env, this.dir);
    } catch (error) {
      throw storageError('compaction', error);
    } finally {
      if (!this.closed) this.openEnv();
    }
  }

  private async durable<T>(body: () => T): Promise<T> {
    try {
      const result = await this.env.transaction(body);
      await this.env.flushed;
      return result;
    } catch (error) {
      throw await lmdbWriteError('KEYS', 'key store', 'write', error, this.dir);
    }
  }

  /**
   * A write that destroys keys: the store is marked for compaction before it commits, inside the shared turn so no
   * scrub can take the mark away in between; a crash right after the commit still leaves the mark.
   */
  private deleting<T>(operation: () => Promise<T>): Promise<T> {
    return this.shared(async () => {
      await markForCompaction(this.dir).catch((error: unknown) => Promise.reject(storageError('mark for compaction', error)));
      return operation();
    });
  }

  private shared<T>(operation: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new MemoryServiceError('KEYS.CLOSED', 'the key store is closed'));
    return this.gate.shared(async () => {
      try {
        return await operation();
      } catch (error) {
        throw error instanceof MemoryServiceError ? error : storageError('read', error);
      }
    });
  }
}
