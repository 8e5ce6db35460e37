import { MemoryServiceError } from '@memory/platform';
import type { MemoryRecord, Scope, ScoredId, VectorQuery, VectorStore } from '@memory/ports';
import { ScopeIndex } from './scope-index.js';
import { scopedKey, scopeRange, storageError, type ScopedKey, type VectorStorage } from './storage.js';
import { checkIds, checkQuery, checkRecord, checkScope, dimensionMismatch } from './validate.js';
import { decodeVectorEntry, encodeVectorEntry, entryDims } from './vector-entry.js';

const cacheKey = (scope: Scope) => JSON.stringify([scope.tenantId, scope.endUserId]);

/**
 * VectorStore on LMDB with an exact in-memory kNN index per end user. LMDB is the truth; an index is loaded from it
 * on the user's first query and afterwards follows every committed upsert and delete of this process.
 */
export class EmbeddedVectorStore implements VectorStore {
  /** Insertion order doubles as recency order: a hit moves its entry to the end. */
  private readonly indexes = new Map<string, ScopeIndex>();
  private closed = false;

  constructor(
    private readonly storage: VectorStorage,
    private readonly maxCachedVectors: number,
  ) {}

  async upsert(memories: MemoryRecord[]): Promise<void> {
    this.checkOpen();
    memories.forEach(checkRecord);
    // The last write of an id within one batch wins, as it would across batches.
    const latest = new Map<string, MemoryRecord>();
    for (const memory of memories) latest.set(JSON.stringify([memory.tenantId, memory.endUserId, memory.id]), memory);
    if (latest.size === 0) return;
    const writes = [...latest.values()].map((memory) => {
      const { vector, ...metadata } = memory;
      return { memory, key: scopedKey(memory, memory.id), metadata, entry: encodeVectorEntry(memory.createdAt, memory.eventTimes, vector) };
    });
    const { memories: metadataTable, vectors } = this.storage;
    await this.storage.durable(() => {
      // Checked inside the write transaction, so two concurrent first writes of a user cannot mix dimensions.
      const dimsByScope = new Map<string, number>();
      for (const { memory } of writes) {
        const scope = cacheKey(memory);
        let dims = dimsByScope.get(scope);
        if (dims === undefined) {
          const [first] = vectors.getRange({ ...scopeRange(memory), limit: 1 });
          dims = first ? entryDims(first.value) : memory.vector.length;
          dimsByScope.set(scope, dims);
        }
        if (memory.vector.length !== dims) throw dimensionMismatch(memory, dims, memory.vector.length);
      }
      for (const { key, metadata, entry } of writes) {
        metadataTable.put(key, metadata);
        vectors.put(key, entry);
      }
    });
    for (const { memory } of writes) {
      const index = this.indexes.get(cacheKey(memory));
      if (!index) continue;
      if (index.dims !== memory.vector.length) {
        this.indexes.delete(cacheKey(memory)); // the user's old vectors are all gone: rebuild on the next query
        continue;
      }
      index.upsert(memory.id, memory.vector, memory.createdAt, timesOf(memory));
    }
    this.evict(null);
  }

  async get(scope: Scope, ids: string[]): Promise<MemoryRecord[]> {
    this.checkOpen();
    checkScope(scope);
    const found: MemoryRecord[] = [];
    try {
      for (const id of checkIds(ids)) {
        const key = scopedKey(scope, id);
        const metadata = this.storage.memories.get(key);
        const entry = metadata && this.storage.vectors.get(key);
        if (!metadata || !entry) continue;
        found.push({ ...(metadata as Omit<MemoryRecord, 'vector'>), vector: Float32Array.from(decodeVectorEntry(entry).vector) });
      }
    } catch (error) {
      throw storageError('read', error);
    }
    return found;
  }

  async knn(scope: Scope, query: VectorQuery): Promise<ScoredId[]> {
    this.checkOpen();
    checkScope(scope);
    checkQuery(query);
    if (query.k === 0) return [];
    const index = this.indexFor(scope);
    if (!index || index.size === 0) return [];
    if (query.vector.length !== index.dims) throw dimensionMismatch(scope, index.dims, query.vector.length);
    return index.search(query.vector, query.k, query.timeRange);
  }

  async ids(scope: Scope): Promise<string[]> {
    this.checkOpen();
    checkScope(scope);
    try {
      return Array.from(this.storage.memories.getKeys(scopeRange(scope)), (key) => (key as ScopedKey)[2]);
    } catch (error) {
      throw storageError('read', error);
    }
  }

  async count(scope: Scope): Promise<number> {
    this.checkOpen();
    checkScope(scope);
    try {
      return this.storage.memories.getKeysCount(scopeRange(scope));
    } catch (error) {
      throw storageError('read', error);
    }
  }

  async delete(scope: Scope, ids: string[]): Promise<number> {
    this.checkOpen();
    checkScope(scope);
    const unique = checkIds(ids);
    if (unique.length === 0) return 0;
    const { memories, vectors } = this.storage;
    const removed = await this.storage.durable(() => {
      const gone: string[] = [];
      for (const id of unique) {
        const key = scopedKey(scope, id);
        if (!memories.doesExist(key)) continue;
        memories.remove(key);
        vectors.remove(key);
        gone.push(id);
      }
      return gone;
    });
    const index = this.indexes.get(cacheKey(scope));
    if (index) for (const id of removed) index.remove(id);
    return removed.length;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.indexes.clear();
    await this.storage.release();
  }

  private checkOpen(): void {
    if (this.closed) throw new MemoryServiceError('VECTORS.CLOSED', 'the vector store is closed');
  }

  private indexFor(scope: Scope): ScopeIndex | null {
    const key = cacheKey(scope);
    const cached = this.indexes.get(key);
    if (cached) {
      this.indexes.delete(key);
      this.indexes.set(key, cached);
      return cached;
    }
    const loaded = this.load(scope);
    if (loaded) {
      this.indexes.set(key, loaded);
      this.evict(key);
    }
    return loaded;
  }

  /** One synchronous range read, so no commit of this process can interleave with the load. */
  private load(scope: Scope): ScopeIndex | null {
    try {
      const range = scopeRange(scope);
      const { vectors } = this.storage;
      let index: ScopeIndex | null = null;
      for (const { key, value } of vectors.getRange(range)) {
        const entry = decodeVectorEntry(value);
        if (!index) {
          index = new ScopeIndex(entry.vector.length);
          index.reserve(vectors.getKeysCount(range));
        }
        // Writes check dimensions, so a mismatch here means a damaged entry: leave it out rather than fail the user.
        if (entry.vector.length === index.dims) index.upsert((key as ScopedKey)[2], entry.vector, entry.createdAt, entry.times);
      }
      return index;
    } catch (error) {
      throw storageError('index load', error);
    }
  }

  /** Drops least recently used indexes past maxCachedVectors; `keep` (the one being queried) always stays. */
  private evict(keep: string | null): void {
    let total = 0;
    for (const index of this.indexes.values()) total += index.size;
    for (const [key, index] of this.indexes) {
      if (total <= this.maxCachedVectors) break;
      if (key === keep) continue;
      this.indexes.delete(key);
      total -= index.size;
    }
  }
}

function timesOf(memory: MemoryRecord): Float64Array | null {
  if (memory.eventTimes.length === 0) return null;
  return Float64Array.from(memory.eventTimes.flatMap((t) => [t.start, t.end]));
}
