import { createHash } from 'node:crypto';
import { analyseMemory, LEXICAL_ANALYSIS_VERSION, type LexicalAnalysis } from '@memory/lexical';
import { MemoryServiceError } from '@memory/platform';
import { checkFilter, checkListQuery, matchesFilter, versionsOf, type FilterFacts, type ListQuery, type MemoryFilter, type MemoryRecord, type MemoryVersion, type NearQuery, type ConditionalWrite, type RevisedMemory, type Scope, type ScoredId, type ScoredTimedId, type StoredMemory, type TextQuery, type TimedId, type VectorQuery, type VectorStore } from '@memory/ports';
import { LexicalScope } from './lexical-scope.js';
import { ScopeIndex } from './scope-index.js';
import { scopedKey, scopeRange, storageError, type ScopedKey, type VectorStorage } from './storage.js';
import { checkIds, checkLimit, checkNearQuery, checkQuery, checkRange, checkRecord, checkScope, checkTextQuery, dimensionMismatch } from './validate.js';
import { decodeVectorEntry, encodeVectorEntry, entryDims } from './vector-entry.js';

const cacheKey = (scope: Scope) => JSON.stringify([scope.tenantId, scope.endUserId]);

/**
 * VectorStore on LMDB with an exact in-memory kNN index and a BM25/identifier index per end user. LMDB is the truth;
 * an index is loaded from it on the user's first query of its kind and afterwards follows every committed upsert
 * and delete of this process.
 */
export class EmbeddedVectorStore implements VectorStore {
  /** Insertion order doubles as recency order: a hit moves its entry to the end. */
  private readonly indexes = new Map<string, ScopeIndex>();
  private readonly lexicalIndexes = new Map<string, LexicalScope>();
  /** Analyses made while loading, being stored (see keepAnalyses); close waits for them. */
  private readonly keepingAnalyses = new Set<Promise<unknown>>();
  private closed = false;

  constructor(
    private readonly storage: VectorStorage,
    private readonly maxCachedVectors: number,
  ) {}

  async upsert(memories: MemoryRecord[]): Promise<void> {
    this.checkOpen();
    memories.forEach(checkRecord);
    await this.write(memories.map((record) => ({ record })));
  }

  /** The condition is checked inside the write transaction, against a digest of the bytes stored (revisionOf). */
  async upsertIf(writes: ConditionalWrite[]): Promise<MemoryRecord[]> {
    this.checkOpen();
    writes.forEach(({ record }) => checkRecord(record));
    return this.write(writes);
  }

  /** Writes the records (those with an `ifRevision` only if their memory is still at it); answers those not written. */
  private async write(records: Array<Partial<Pick<ConditionalWrite, 'ifRevision'>> & Pick<ConditionalWrite, 'record'>>): Promise<MemoryRecord[]> {
    // The last write of an id within one batch wins, as it would across batches.
    const latest = new Map<string, (typeof records)[number]>();
    for (const write of records) latest.set(JSON.stringify([write.record.tenantId, write.record.endUserId, write.record.id]), write);
    if (latest.size === 0) return [];
    const prepared = [...latest.values()].map(({ record: memory, ifRevision }) => {
      const { vector, ...metadata } = memory;
      const entry = encodeVectorEntry(memory.createdAt, memory.eventTimes, vector);
      return { memory, ifRevision, key: scopedKey(memory, memory.id), metadata, entry, analysis: analyseMemory(memory) };
    });
    const { memories: metadataTable, vectors, lexical: analyses } = this.storage;
    let writes = prepared;
    let lost: MemoryRecord[] = [];
    await this.storage.durable(() => {
      writes = [];
      lost = [];
      for (const write of prepared) {
        if (write.ifRevision === undefined || this.revisionOf(write.key) === write.ifRevision) writes.push(write);
        else lost.push(write.memory);
      }
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
      for (const { key, metadata, entry, analysis } of writes) {
        metadataTable.put(key, metadata);
        vectors.put(key, entry);
        analyses.put(key, analysis);
      }
    });
    for (const { memory } of writes) {
      const index = this.indexes.get(cacheKey(memory));
      if (!index) continue;
      if (index.dims !== memory.vector.length) {
        this.indexes.delete(cacheKey(memory)); // the user's old vectors are all gone: rebuild on the next query
        continue;
      }
      index.upsert(memory.id, memory.vector, memory.createdAt, timesOf(memory), factsOf(memory));
    }
    for (const { memory, analysis } of writes) this.lexicalIndexes.get(cacheKey(memory))?.upsert(memory.id, analysis);
    this.evict(null);
    return lost;
  }

  /**
   * Which write of a memory the store holds: a digest of its stored bytes (record and vector entry), null when it
   * holds none. Bytes stored change only by a write, so an unchanged digest is an unchanged memory.
   */
  private revisionOf(key: ScopedKey): string | null {
    const metadata = this.storage.memories.getBinary(key);
    const entry = metadata && this.storage.vectors.getBinary(key);
    return entry ? createHash('sha256').update(metadata).update(entry).digest('base64url') : null;
  }

  async get(scope: Scope, ids: string[]): Promise<MemoryRecord[]> {
    return this.read(scope, ids, (key, metadata) => {
      const entry = this.storage.vectors.get(key);
      return entry ? { ...metadata, vector: Float32Array.from(decodeVectorEntry(entry).vector) } : null;
    });
  }

  async getRevised(scope: Scope, ids: string[]): Promise<RevisedMemory[]> {
    return this.read(scope, ids, (key, metadata) => {
      const entry = this.storage.vectors.get(key);
      const revision = entry && this.revisionOf(key);
      return revision ? { record: { ...metadata, vector: Float32Array.from(decodeVectorEntry(entry).vector) }, revision } : null;
    });
  }

  async getWithoutVectors(scope: Scope, ids: string[]): Promise<StoredMemory[]> {
    // A memory counts once its vector is stored too, as in get: the two are written in one transaction.
    return this.read(scope, ids, (key, metadata) => (this.storage.vectors.doesExist(key) ? metadata : null));
  }

  async vectors(scope: Scope, ids: string[]): Promise<Map<string, Float32Array>> {
    const read = await this.read(scope, ids, (key, metadata) => {
      const entry = this.storage.vectors.get(key);
      return entry ? ([metadata.id, Float32Array.from(decodeVectorEntry(entry).vector)] as const) : null;
    });
    return new Map(read);
  }

  /** The memories of these ids in the scope, each made by `complete` from its key and stored fields (null: skip it). */
  private async read<T>(scope: Scope, ids: string[], complete: (key: ScopedKey, metadata: StoredMemory) => T | null): Promise<T[]> {
    this.checkOpen();
    checkScope(scope);
    const found: T[] = [];
    try {
      for (const id of checkIds(ids)) {
        const key = scopedKey(scope, id);
        const metadata = this.storage.memories.get(key);
        const memory = metadata && complete(key, metadata as unknown as StoredMemory);
        if (memory) found.push(memory);
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
    const { timeRange: range, filter } = query;
    const index = this.indexFor(scope, filter);
    if (!index || index.size === 0) return [];
    if (query.vector.length !== index.dims) throw dimensionMismatch(scope, index.dims, query.vector.length);
    return index.search(query.vector, query.k, range, filter);
  }

  async textSearch(scope: Scope, query: TextQuery): Promise<ScoredId[]> {
    this.checkOpen();
    checkScope(scope);
    checkTextQuery(query);
    if (query.k === 0 || query.terms.length === 0) return [];
    const lexical = this.lexicalFor(scope);
    const { timeRange: range, filter } = query;
    if (!range && !filter) return lexical.search(query.terms, query.k);
    const index = this.indexFor(scope, filter);
    if (!index) return [];
    const passes = filter ? index.passing(filter) : null;
    return lexical.search(query.terms, query.k, (id) => (!range || index.inRange(id, range)) && (!passes || passes(id)));
  }

  async findByIdentifiers(scope: Scope, identifiers: string[], limit: number, filter?: MemoryFilter): Promise<string[]> {
    this.checkOpen();
    checkScope(scope);
    checkLimit(limit);
    checkFilter(filter);
    if (limit === 0 || identifiers.length === 0) return [];
    let found = this.lexicalFor(scope).lookup(identifiers);
    if (filter) {
      const index = this.indexFor(scope, filter);
      if (!index) return [];
      found = found.filter(index.passing(filter));
    }
    if (found.length <= limit) return found;
    // Newest first when there are more than asked for, as the Elasticsearch store orders them.
    const createdAt = new Map(found.map((id) => [id, (this.storage.memories.get(scopedKey(scope, id)) as { createdAt?: number } | undefined)?.createdAt ?? 0]));
    return found.sort((a, b) => createdAt.get(b)! - createdAt.get(a)! || (a < b ? -1 : 1)).slice(0, limit);
  }

  async inTimeRange(scope: Scope, range: { from: number; to: number }, limit: number, filter?: MemoryFilter): Promise<TimedId[]> {
    this.checkOpen();
    checkScope(scope);
    checkRange(range);
    checkLimit(limit);
    checkFilter(filter);
    if (limit === 0) return [];
    return this.indexFor(scope, filter)?.inTimeRange(range, limit, filter) ?? [];
  }

  async countInTimeRanges(scope: Scope, ranges: ReadonlyArray<{ from: number; to: number }>): Promise<number[]> {
    this.checkOpen();
    checkScope(scope);
    ranges.forEach(checkRange);
    const index = this.indexFor(scope, undefined);
    return ranges.map((range) => index?.countInTimeRange(range) ?? 0);
  }

  async matching(scope: Scope, ids: string[], filter: MemoryFilter): Promise<string[]> {
    this.checkOpen();
    checkScope(scope);
    const unique = checkIds(ids);
    checkFilter(filter);
    const index = unique.length === 0 ? null : this.indexFor(scope, filter);
    if (!index) return [];
    return unique.filter(index.passing(filter));
  }

  async creationTimes(scope: Scope, ids: string[]): Promise<Map<string, number>> {
    this.checkOpen();
    checkScope(scope);
    const index = this.indexFor(scope);
    const times = new Map<string, number>();
    for (const id of checkIds(ids)) {
      const createdAt = index?.createdAtOf(id);
      if (createdAt !== undefined) times.set(id, createdAt);
    }
    return times;
  }

  async createdNear(scope: Scope, query: NearQuery): Promise<ScoredTimedId[]> {
    this.checkOpen();
    checkScope(scope);
    checkNearQuery(query);
    if (query.limit === 0 || query.instants.length === 0) return [];
    const index = this.indexFor(scope, query.filter);
    if (!index || index.size === 0) return [];
    if (query.vector.length !== index.dims) throw dimensionMismatch(scope, index.dims, query.vector.length);
    return index.createdNear(query.instants, query.windowMs, query.limit, query.vector, query.filter);
  }

  /**
   * Walks the kNN index's creation-time order from the page's start: creation and event-time conditions are decided
   * there, the others on each visited memory's record; so an unfiltered page reads only its own records.
   */
  async list(scope: Scope, query: ListQuery): Promise<StoredMemory[]> {
    this.checkOpen();
    checkScope(scope);
    checkListQuery(query);
    const index = query.limit === 0 ? null : this.indexFor(scope);
    if (!index) return [];
    const { created, events, ...onRecord } = query.filter ?? {};
    const readsRecord = Object.values(onRecord).some((condition) => condition !== undefined);
    const page: StoredMemory[] = [];
    try {
      index.newestFirst({ after: query.after, created, events }, (id) => {
        const record = this.storage.memories.get(scopedKey(scope, id)) as StoredMemory | undefined;
        if (record && (!readsRecord || matchesFilter(onRecord, record))) page.push(record);
        return page.length < query.limit;
      });
    } catch (error) {
      throw storageError('read', error);
    }
    return page;
  }

  /** The history lives in the memory's record (MemoryRecord.versions): one read, written and deleted with the memory. */
  async history(scope: Scope, id: string): Promise<MemoryVersion[] | null> {
    this.checkOpen();
    checkScope(scope);
    const [checked] = checkIds([id]);
    if (checked === undefined) return null;
    let record: StoredMemory | undefined;
    try {
      record = this.storage.memories.get(scopedKey(scope, checked)) as StoredMemory | undefined;
    } catch (error) {
      throw storageError('read', error);
    }
    return record ? versionsOf(record) : null;
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

  /** From the kNN index, which search loads anyway: counting LMDB keys walks all of them (3 ms a search at 10k memories). */
  async count(scope: Scope): Promise<number> {
    this.checkOpen();
    checkScope(scope);
    return this.indexFor(scope)?.size ?? 0;
  }

  async delete(scope: Scope, ids: string[]): Promise<number> {
    this.checkOpen();
    checkScope(scope);
    const unique = checkIds(ids);
    if (unique.length === 0) return 0;
    const { memories, vectors, lexical: analyses } = this.storage;
    await this.storage.markDeleting();
    const removed = await this.storage.durable(() => {
      const gone: string[] = [];
      for (const id of unique) {
        const key = scopedKey(scope, id);
        if (!memories.doesExist(key)) continue;
        memories.remove(key);
        vectors.remove(key);
        analyses.remove(key);
        gone.push(id);
      }
      return gone;
    });
    const index = this.indexes.get(cacheKey(scope));
    if (index) for (const id of removed) index.remove(id);
    const lexical = this.lexicalIndexes.get(cacheKey(scope));
    if (lexical) for (const id of removed) lexical.remove(id);
    return removed.length;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(this.keepingAnalyses);
    this.indexes.clear();
    this.lexicalIndexes.clear();
    await this.storage.release();
  }

  private checkOpen(): void {
    if (this.closed) throw new MemoryServiceError('VECTORS.CLOSED', 'the vector store is closed');
  }

  /** The end user's kNN index, loaded on first use; able to decide `filter` (its facts loaded) when one is given. */
  private indexFor(scope: Scope, filter?: MemoryFilter): ScopeIndex | null {
    const key = cacheKey(scope);
    let index = this.indexes.get(key) ?? null;
    if (index) {
      this.indexes.delete(key);
      this.indexes.set(key, index);
    } else {
      index = this.load(scope);
      if (index) {
        this.indexes.set(key, index);
        this.evict(key);
      }
    }
    if (index && filter) this.loadFacts(scope, index);
    return index;
  }

  /**
   * Gives the index every row's filter facts, read from the records once (one range read of the user's memories),
   * on the first filtered query; writes keep them after that.
   */
  private loadFacts(scope: Scope, index: ScopeIndex): void {
    if (index.filterable) return;
    const facts = new Map<string, FilterFacts>();
    try {
      for (const { key, value } of this.storage.memories.getRange(scopeRange(scope))) facts.set((key as ScopedKey)[2], factsOf(value as StoredMemory));
    } catch (error) {
      throw storageError('filter facts load', error);
    }
    index.loadFacts((id) => facts.get(id) ?? null);
  }

  private lexicalFor(scope: Scope): LexicalScope {
    const key = cacheKey(scope);
    const cached = this.lexicalIndexes.get(key);
    if (cached) {
      this.lexicalIndexes.delete(key);
      this.lexicalIndexes.set(key, cached);
      return cached;
    }
    const lexical = new LexicalScope();
    // A fresh range object for each call: lmdb-js's getKeysCount marks the options object it is given.
    const range = () => scopeRange(scope);
    const unanalysed: Array<{ key: ScopedKey; analysis: LexicalAnalysis }> = [];
    try {
      // Synchronous range reads, like the kNN index load: no commit of this process interleaves.
      for (const { key, value } of this.storage.lexical.getRange(range())) {
        if (value.version === LEXICAL_ANALYSIS_VERSION) lexical.upsert((key as ScopedKey)[2], value);
      }
      if (lexical.size !== this.storage.memories.getKeysCount(range())) {
        // Memories stored before analyses were kept, or analysed under another version: analysed now.
        for (const { key, value } of this.storage.memories.getRange(range())) {
          const id = (key as ScopedKey)[2];
          if (lexical.has(id)) continue;
          const analysis = analyseMemory(value as unknown as MemoryRecord);
          lexical.upsert(id, analysis);
          unanalysed.push({ key: key as ScopedKey, analysis });
        }
      }
    } catch (error) {
      throw storageError('lexical index load', error);
    }
    if (unanalysed.length > 0) this.keepAnalyses(unanalysed);
    this.lexicalIndexes.set(key, lexical);
    this.evict(key);
    return lexical;
  }

  /**
   * Stores analyses made while loading, so the next load reads them. Only where no current analysis is stored by
   * then: an upsert since the load wrote its own. Best effort: a failure leaves the next load to analyse again.
   */
  private keepAnalyses(made: Array<{ key: ScopedKey; analysis: LexicalAnalysis }>): void {
    const { memories, lexical } = this.storage;
    const writing = this.storage
      .durable(() => {
        for (const { key, analysis } of made) {
          if (memories.doesExist(key) && lexical.get(key)?.version !== LEXICAL_ANALYSIS_VERSION) lexical.put(key, analysis);
        }
      })
      .catch(() => undefined)
      .finally(() => this.keepingAnalyses.delete(writing));
    this.keepingAnalyses.add(writing);
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

  /**
   * Drops least recently used indexes past maxCachedVectors memories (kNN and lexical counted apart, each against
   * the same budget); `keep` (the one being queried) always stays.
   */
  private evict(keep: string | null): void {
    for (const cache of [this.indexes, this.lexicalIndexes] as Array<Map<string, { size: number }>>) {
      let total = 0;
      for (const index of cache.values()) total += index.size;
      for (const [key, index] of cache) {
        if (total <= this.maxCachedVectors) break;
        if (key === keep) continue;
        cache.delete(key);
        total -= index.size;
      }
    }
  }
}

/** What a filter reads of a memory, without the rest of its record (content, vector) that the index need not keep. */
function factsOf(memory: FilterFacts): FilterFacts {
  return { memoryType: memory.memoryType, jobId: memory.jobId, createdAt: memory.createdAt, eventTimes: memory.eventTimes, metadata: memory.metadata ?? null };
}

function timesOf(memory: MemoryRecord): Float64Array | null {
  if (memory.eventTimes.length === 0) return null;
  return Float64Array.from(memory.eventTimes.flatMap((t) => [t.start, t.end]));
}
