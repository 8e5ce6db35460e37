import { open, type Database, type Key, type RootDatabase } from 'lmdb';
import type { LexicalAnalysis } from '@memory/lexical';
import { closeCompactingIfMarked, handleFailedCommits, lmdbError, lmdbWriteError, markForCompaction, MemoryServiceError } from '@memory/platform';
import type { CentroidMember, Scope } from '@memory/ports';

/** Keys are [tenantId, endUserId, ...]: one end user's entries form one ordered key range, ids never meet across scopes. */
export type ScopedKey = [tenantId: string, endUserId: string, id: string];
export type ScopeKey = [tenantId: string, endUserId: string];

// ordered-binary writes array elements separated by a 0 byte and strings never contain a raw 0 byte, so a single
// 0xff after the prefix sorts above every [tenant, user, <any id>] key and below the next user's keys.
const AFTER_ALL = new Uint8Array([0xff]);

export const scopedKey = (scope: Scope, id: string): ScopedKey => [scope.tenantId, scope.endUserId, id];

export function scopeRange(scope: Scope): { start: Key; end: Key } {
  return { start: [scope.tenantId, scope.endUserId], end: [scope.tenantId, scope.endUserId, AFTER_ALL] };
}

/**
 * The on-disk layout, one LMDB environment:
 *   memories          [tenant, user, memoryId] -> MemoryRecord without its vector (msgpack, shared structures)
 *   vectors           [tenant, user, memoryId] -> vector entry (see vector-entry.ts): what the kNN index loads
 *   centroids         [tenant, user]           -> centroid (msgpack, sum as raw Float32 bytes)
 *   centroid-members  [tenant, user, memoryId] -> { version, similarity } (1 when written before members had them)
 *
 * overlappingSync is off: LMDB then fsyncs inside the commit, so a write's promise resolves only once it is on
 * disk (with lmdb-js's default it resolves at commit and durability comes later through `flushed`). `durable()`
 * still awaits `flushed`, so the guarantee does not hang on that one flag.
 */
export class VectorStorage {
  private references = 0;
  private constructor(
    readonly dir: string,
    readonly env: RootDatabase,
    readonly memories: Database<Record<string, unknown>, Key>,
    readonly vectors: Database<Buffer, Key>,
    readonly centroids: Database<StoredCentroid, Key>,
    readonly centroidMembers: Database<StoredMember, Key>,
    /** Each memory's lexical analysis (terms and identifiers), so loading a user's BM25 index analyses nothing. */
    readonly lexical: Database<LexicalAnalysis, Key>,
  ) {}

  static open(dir: string): VectorStorage {
    try {
      const env = handleFailedCommits(open({ path: dir, overlappingSync: false, maxDbs: 8 }));
      return new VectorStorage(
        dir,
        env,
        env.openDB('memories', { sharedStructuresKey: Symbol.for('structures') }),
        env.openDB('vectors', { encoding: 'binary' }),
        env.openDB('centroids', {}),
        env.openDB('centroid-members', {}),
        env.openDB('lexical', {}),
      );
    } catch (error) {
      throw storageError('open', error);
    }
  }

  /** Both stores may share one environment; it closes when the last of them does. */
  acquire(): this {
    this.references++;
    return this;
  }

  async release(): Promise<void> {
    if (--this.references > 0) return;
    await closeCompactingIfMarked(this.env, this.dir, (error) => storageError('compaction', error));
  }

  /**
   * Before a delete commits: the file is compacted when the store closes (or, after a crash, when it next opens), so
   * nothing deleted stays in freed pages. Marked first, so no crash can fall between the commit and the mark.
   */
  async markDeleting(): Promise<void> {
    await markForCompaction(this.dir).catch((error: unknown) => Promise.reject(storageError('mark for compaction', error)));
  }

  /** Runs `body` in one write transaction and resolves once the transaction is on disk. */
  async durable<T>(body: () => T): Promise<T> {
    try {
      const result = await this.env.transaction(body);
      await this.env.flushed;
      return result;
    } catch (error) {
      if (error instanceof MemoryServiceError) throw error;
      throw await lmdbWriteError('VECTORS', 'vector store', 'write', error, this.dir);
    }
  }
}

/** A centroid member: its version and share of the spread; the number 1 when recorded before those were kept. */
export type StoredMember = CentroidMember | 1;

export interface StoredCentroid {
  embeddingModel: string;
  sum: Uint8Array;
  memoryCount: number;
  similaritySum: number;
  /** A new random value at each save (none before saves were conditional), so a reset and a save never repeat one. */
  revision?: string;
}

export function storageError(operation: string, cause: unknown): MemoryServiceError {
  return lmdbError('VECTORS', 'vector store', operation, cause);
}
