import type { Client, estypes } from '@elastic/elasticsearch';
import { MemoryServiceError } from '@memory/platform';
import { checkFilter, checkListQuery, versionsOf, type ListQuery, type MemoryFilter, type MemoryRecord, type MemoryVersion, type NearQuery, type ConditionalWrite, type RevisedMemory, type Scope, type ScoredId, type ScoredTimedId, type StoredMemory, type TextQuery, type TimedId, type VectorQuery, type VectorStore } from '@memory/ports';
import { bulk } from './bulk.js';
import type { SharedClient } from './client.js';
import { DelayedExpunge } from './delayed-expunge.js';
import { SharedRefresh } from './shared-refresh.js';
import { call, readableDocs } from './errors.js';
import { countInTimeWindows, searchInTimeRange } from './in-time-range.js';
import { fromListedDocument, fromMemoryDocument, toMemoryDocument, vectorFromBytes, type MemoryDocument } from './memory-document.js';
import { documentId } from './names.js';
import { MAX_CANDIDATES, type ElasticsearchStoresSettings } from './options.js';
import { cosineFromScore, createdNearRequest, hitCreatedAt, hitId, creationTimesRequest, hitBytes, identifiersRequest, idsPageRequest, knnSearchRequest, listRequest, matchingRequest, scopeFilter, textSearchRequest, vectorsRequest } from './queries.js';
import { indexTermStatsRequest, readTermStats, searchPreference, userTermBoosts, userTermStatsRequest } from './user-term-weights.js';
import { checkIdentifiers, checkIds, checkLimit, checkNearQuery, checkQuery, checkRecord, checkScope, checkTextQuery, checkTimeRange } from './validate.js';

const IDS_PAGE = 1_000;

const memoryDocumentId = (scope: Scope, id: string) => documentId(scope.tenantId, scope.endUserId, id);

/** A memory document read by id, with what a write conditioned on it names (RevisedMemory.revision). */
type ReadDocument = Required<Pick<estypes.GetGetResult<MemoryDocument>, '_source' | '_seq_no' | '_primary_term'>>;

/** The if_seq_no and if_primary_term of a revision getRevised made; a revision it could not have made is refused. */
function seqNoOf(revision: string): { if_seq_no: number; if_primary_term: number } {
  const [term, seqNo] = typeof revision === 'string' ? revision.split(':').map(Number) : [];
  if (!Number.isSafeInteger(term) || !Number.isSafeInteger(seqNo)) throw new MemoryServiceError('VECTORS.INVALID_RECORD', `not a revision of this store: ${String(revision)}`);
  return { if_seq_no: seqNo!, if_primary_term: term! };
}

/**
 * VectorStore on one Elasticsearch index of memory documents, _id derived from (tenant, end user, memory id).
 *
 * Reads by id (get) are realtime: they see every acknowledged write at once. Searches (knn, textSearch,
 * findByIdentifiers, inTimeRange, count, ids) see what the last refresh made visible, which is why writes wait for
 * one by default (see `refresh` in the options and README.md).
 */
export class ElasticsearchVectorStore implements VectorStore {
  private readonly client: Client;
  private closed = false;

  private readonly expunge: DelayedExpunge;
  private readonly sharedRefresh: SharedRefresh;

  constructor(
    private readonly shared: SharedClient,
    private readonly index: string,
    private readonly settings: ElasticsearchStoresSettings,
  ) {
    this.client = shared.acquire();
    this.expunge = new DelayedExpunge(this.client, index, settings.expungeDelayMs);
    this.sharedRefresh = SharedRefresh.forIndex(this.client, 'VECTORS', index, settings.minRefreshSpacingMs);
  }

  async upsert(memories: MemoryRecord[]): Promise<void> {
    const latest = this.latestById(memories, (memory) => memory, 'upsert takes an array of memories');
    if (latest.size === 0) return;
    const operations: estypes.BulkRequest['operations'] = [];
    for (const [_id, memory] of latest) operations.push({ index: { _index: this.index, _id } }, toMemoryDocument(memory));
    await this.write(`upsert ${latest.size} memories into ${this.index}`, operations);
  }

  /**
   * One bulk as upsert's, each item conditioned on the revision read (if_seq_no and if_primary_term; create when
   * the memory was absent): Elasticsearch checks and writes each document atomically, and a lost item (409) is
   * answered, not thrown. A lost answer resent by the client reads as lost too; the caller's new read finds its write.
   */
  async upsertIf(writes: ConditionalWrite[]): Promise<MemoryRecord[]> {
    const latest = this.latestById(writes, (write) => write.record, 'upsertIf takes an array of conditional writes');
    if (latest.size === 0) return [];
    const operations: estypes.BulkRequest['operations'] = [];
    for (const [_id, { record, ifRevision }] of latest) {
      const condition = ifRevision === null ? { create: { _index: this.index, _id } } : { index: { _index: this.index, _id, ...seqNoOf(ifRevision) } };
      operations.push(condition, toMemoryDocument(record));
    }
    const items = await this.write(`upsert ${latest.size} memories into ${this.index} if unchanged`, operations, { conditional: true });
    const sent = [...latest.values()];
    return sent.filter((_, i) => items[i]!.status === 409).map(({ record }) => record);
  }

  /**
   * The writes of a batch, checked, by document id: the last write of an id within one batch wins, as it would
   * across batches, and sending it once saves the work.
   */
  private latestById<T>(writes: T[], recordOf: (write: T) => MemoryRecord, notAnArray: string): Map<string, T> {
    this.checkOpen();
    if (!Array.isArray(writes)) throw new MemoryServiceError('VECTORS.INVALID_RECORD', notAnArray);
    const latest = new Map<string, T>();
    for (const write of writes) {
      const record = recordOf(write);
      checkRecord(record, this.settings.dims);
      latest.set(memoryDocumentId(record, record.id), write);
    }
    return latest;
  }

  async get(scope: Scope, ids: string[]): Promise<MemoryRecord[]> {
    return (await this.read(scope, ids, true)).map(({ _source }) => fromMemoryDocument(_source));
  }

  async getRevised(scope: Scope, ids: string[]): Promise<RevisedMemory[]> {
    return (await this.read(scope, ids, true)).map((doc) => ({ record: fromMemoryDocument(doc._source), revision: `${doc._primary_term}:${doc._seq_no}` }));
  }

  async getWithoutVectors(scope: Scope, ids: string[]): Promise<StoredMemory[]> {
    return (await this.read(scope, ids, false)).map(({ _source }) => fromListedDocument(_source));
  }

  async vectors(scope: Scope, ids: string[]): Promise<Map<string, Float32Array>> {
    this.checkOpen();
    checkScope(scope);
    const unique = checkIds(ids);
    if (unique.length === 0) return new Map();
    const response = await call('VECTORS', `read ${unique.length} vectors from ${this.index}`, () => this.client.search(vectorsRequest(this.index, scope, unique)));
    const vectors = new Map<string, Float32Array>();
    const unfilled: string[] = [];
    for (const hit of response.hits.hits) {
      const bytes = hitBytes(hit, 'vectorBytes');
      if (bytes === null) unfilled.push(hitId(hit));
      else vectors.set(hitId(hit), vectorFromBytes(bytes));
    }
    // Written by a process of an older version since the stores last opened (the next open fills them).
    if (unfilled.length > 0) for (const memory of await this.get(scope, unfilled)) vectors.set(memory.id, memory.vector);
    return vectors;
  }

  async knn(scope: Scope, query: VectorQuery): Promise<ScoredId[]> {
    this.checkOpen();
    checkScope(scope);
    checkQuery(query, this.settings.dims);
    if (query.k === 0) return [];
    const request = knnSearchRequest(this.index, scope, query, this.settings.minCandidates);
    const response = await call('VECTORS', `knn search in ${this.index}`, () => this.client.search<Pick<MemoryDocument, 'id'>>(request));
    return response.hits.hits.map((hit) => ({ id: hitId(hit), score: cosineFromScore(hit._score ?? 0), createdAt: hitCreatedAt(hit) }));
  }

  /**
   * BM25 over the pre-analysed lexicalTerms field. The statistics behind it (document frequencies, average length)
   * are the shard's, over every end user's memories, where the embedded store counts one end user's: the scores
   * differ between the two, and rankings agree as far as words are about as rare in both. Elasticsearch's default
   * similarity keeps the (k1 + 1) factor Lucene itself dropped, so its score is the textbook one, as the embedded.
   */
  async textSearch(scope: Scope, query: TextQuery): Promise<ScoredId[]> {
    this.checkOpen();
    checkScope(scope);
    checkTextQuery(query);
    if (query.k === 0 || query.terms.length === 0) return [];
    const terms = [...new Set(query.terms)];
    const preference = searchPreference(scope);
    const what = `term statistics in ${this.index}`;
    const [user, index] = await Promise.all([
      call('VECTORS', what, () => this.client.search(userTermStatsRequest(this.index, scope, terms, preference))),
      call('VECTORS', what, () => this.client.termvectors(indexTermStatsRequest(this.index, terms, preference))),
    ]);
    const boosts = userTermBoosts(terms, readTermStats(user, index, terms));
    if (boosts.size === 0) return [];
    const request = textSearchRequest(this.index, scope, query, boosts, preference);
    const response = await call('VECTORS', `text search in ${this.index}`, () => this.client.search<Pick<MemoryDocument, 'id'>>(request));
    return response.hits.hits.map((hit) => ({ id: hitId(hit), score: hit._score ?? 0, createdAt: hitCreatedAt(hit) }));
  }

  async findByIdentifiers(scope: Scope, identifiers: string[], limit: number, filter?: MemoryFilter): Promise<string[]> {
    this.checkOpen();
    checkScope(scope);
    checkIdentifiers(identifiers);
    checkLimit(limit);
    checkFilter(filter);
    const wanted = [...new Set(identifiers.map((identifier) => identifier.toLowerCase()).filter((identifier) => identifier !== ''))];
    if (wanted.length === 0 || limit === 0) return [];
    const request = identifiersRequest(this.index, scope, wanted, limit, filter);
    const response = await call('VECTORS', `find memories by identifier in ${this.index}`, () => this.client.search<Pick<MemoryDocument, 'id'>>(request));
    return response.hits.hits.map((hit) => hitId(hit));
  }

  async inTimeRange(scope: Scope, range: { from: number; to: number }, limit: number, filter?: MemoryFilter): Promise<TimedId[]> {
    this.checkOpen();
    checkScope(scope);
    checkTimeRange(range);
    checkLimit(limit);
    checkFilter(filter);
    return searchInTimeRange(this.client, this.index, scope, range, limit, filter);
  }

  async countInTimeRanges(scope: Scope, ranges: ReadonlyArray<{ from: number; to: number }>): Promise<number[]> {
    this.checkOpen();
    checkScope(scope);
    ranges.forEach(checkTimeRange);
    return ranges.length === 0 ? [] : countInTimeWindows(this.client, this.index, scope, ranges);
  }

  async matching(scope: Scope, ids: string[], filter: MemoryFilter): Promise<string[]> {
    this.checkOpen();
    checkScope(scope);
    const unique = checkIds(ids);
    checkFilter(filter);
    const passing = new Set<string>();
    for (let start = 0; start < unique.length; start += MAX_CANDIDATES) {
      const request = matchingRequest(this.index, scope, unique.slice(start, start + MAX_CANDIDATES), filter);
      const response = await call('VECTORS', `filter memories in ${this.index}`, () => this.client.search<Pick<MemoryDocument, 'id'>>(request));
      for (const hit of response.hits.hits) passing.add(hitId(hit));
    }
    return unique.filter((id) => passing.has(id));
  }

  async creationTimes(scope: Scope, ids: string[]): Promise<Map<string, number>> {
    this.checkOpen();
    checkScope(scope);
    const unique = checkIds(ids);
    if (unique.length === 0) return new Map();
    const request = creationTimesRequest(this.index, scope, unique);
    const response = await call('VECTORS', `read creation times in ${this.index}`, () => this.client.search<Pick<MemoryDocument, 'id' | 'createdAt'>>(request));
    return new Map(response.hits.hits.map((hit) => [hitId(hit), hitCreatedAt(hit)]));
  }

  async createdNear(scope: Scope, query: NearQuery): Promise<ScoredTimedId[]> {
    this.checkOpen();
    checkScope(scope);
    checkNearQuery(query, this.settings.dims);
    if (query.limit === 0 || query.instants.length === 0) return [];
    const request = createdNearRequest(this.index, scope, query);
    const response = await call('VECTORS', `find memories created near others in ${this.index}`, () =>
      this.client.search<Pick<MemoryDocument, 'id' | 'createdAt'>>(request),
    );
    return response.hits.hits.map((hit) => ({ id: hitId(hit), time: hitCreatedAt(hit), score: cosineFromScore(hit._score ?? 0) }));
  }

  async list(scope: Scope, query: ListQuery): Promise<StoredMemory[]> {
    this.checkOpen();
    checkScope(scope);
    checkListQuery(query);
    if (query.limit === 0) return [];
    const request = listRequest(this.index, scope, query);
    const response = await call('VECTORS', `list memories in ${this.index}`, () => this.client.search<Omit<MemoryDocument, 'vector'>>(request));
    return response.hits.hits.map((hit) => fromListedDocument(hit._source!));
  }

  /** The history lives in the memory's document (MemoryRecord.versions, kept in _source, not indexed): one realtime get. */
  async history(scope: Scope, id: string): Promise<MemoryVersion[] | null> {
    this.checkOpen();
    checkScope(scope);
    const [checked] = checkIds([id]);
    if (checked === undefined) return null;
    const response = await call('VECTORS', `read the history of a memory from ${this.index}`, () =>
      this.client.get<Omit<MemoryDocument, 'vector'>>({ index: this.index, id: memoryDocumentId(scope, checked), _source_excludes: ['vector', 'vectorBytes'] }, { ignore: [404] }),
    );
    const source = response.found ? response._source : undefined;
    if (!source || source.tenantId !== scope.tenantId || source.endUserId !== scope.endUserId) return null;
    return versionsOf(fromListedDocument(source));
  }

  async ids(scope: Scope): Promise<string[]> {
    this.checkOpen();
    checkScope(scope);
    const ids: string[] = [];
    let after: string | undefined;
    for (;;) {
      const request = idsPageRequest(this.index, scope, IDS_PAGE, after);
      const response = await call('VECTORS', `list memory ids in ${this.index}`, () => this.client.search(request));
      const page = response.hits.hits.map((hit) => String(hit.sort?.[0]));
      ids.push(...page);
      if (page.length < IDS_PAGE) return ids;
      after = page[page.length - 1];
    }
  }

  async count(scope: Scope): Promise<number> {
    this.checkOpen();
    checkScope(scope);
    const response = await call('VECTORS', `count memories in ${this.index}`, () =>
      this.client.count({ index: this.index, query: { bool: { filter: scopeFilter(scope) } } }),
    );
    return response.count;
  }

  async delete(scope: Scope, ids: string[]): Promise<number> {
    this.checkOpen();
    checkScope(scope);
    const unique = checkIds(ids);
    if (unique.length === 0) return 0;
    // A delete addresses the scoped _id, so another tenant's or end user's memory of the same id is out of reach.
    const operations = unique.map((id) => ({ delete: { _index: this.index, _id: memoryDocumentId(scope, id) } }));
    const items = await this.write(`delete ${unique.length} memories from ${this.index}`, operations);
    const deleted = items.filter((item) => item.result === 'deleted').length;
    // A deleted memory's text stays in its segment until a merge drops it: forgetting asks for one.
    if (deleted > 0) this.expunge.schedule();
    return deleted;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.expunge.cancel();
    await this.shared.release();
  }

  /** One bulk write, resolved when search sees it as the `refresh` option says. */
  private async write(what: string, operations: estypes.BulkRequest['operations'], options?: Parameters<typeof bulk>[5]): Promise<estypes.BulkResponseItem[]> {
    const { refresh } = this.settings;
    const items = await bulk(this.client, 'VECTORS', what, operations, refresh === 'shared' ? false : refresh, options);
    if (refresh === 'shared') await this.sharedRefresh.afterWrites();
    return items;
  }

  /** The documents of these ids in the scope (realtime), with or without their vectors. */
  private async read(scope: Scope, ids: string[], withVectors: boolean): Promise<ReadDocument[]> {
    this.checkOpen();
    checkScope(scope);
    const unique = checkIds(ids);
    if (unique.length === 0) return [];
    const what = `read ${unique.length} memories from ${this.index}`;
    const response = await call('VECTORS', what, () =>
      this.client.mget<MemoryDocument>({ index: this.index, ids: unique.map((id) => memoryDocumentId(scope, id)), _source_excludes: withVectors ? ['vectorBytes'] : ['vector', 'vectorBytes'] }),
    );
    const found: ReadDocument[] = [];
    for (const doc of readableDocs('VECTORS', what, response.docs)) {
      if (!('found' in doc) || !doc.found || !doc._source) continue;
      // The _id already encodes the scope; checking the fields as well costs nothing and guards the boundary.
      if (doc._source.tenantId !== scope.tenantId || doc._source.endUserId !== scope.endUserId) continue;
      found.push({ _source: doc._source, _seq_no: doc._seq_no!, _primary_term: doc._primary_term! });
    }
    return found;
  }

  private checkOpen(): void {
    if (this.closed) throw new MemoryServiceError('VECTORS.CLOSED', 'the vector store is closed');
  }
}
