import type { estypes } from '@elastic/elasticsearch';
import { mergedWindows, type ListQuery, type MemoryFilter, type NearQuery, type Scope, type TextQuery, type VectorQuery } from '@memory/ports';
import { DERIVED } from './memory-document.js';
import { MAX_CANDIDATES } from './options.js';

type Query = estypes.QueryDslQueryContainer;

/**
 * What a search returns of each hit: doc values, and no stored field at all. Reading a field from _source parses the
 * whole stored document, vector included; and even the _id of a hit is a stored field, kept in the same compressed
 * blocks as _source, so fetching it decompresses the documents' vectors too (README, "The fetch phase").
 * `stored_fields: '_none_'` skips both; the hits carry our own `id` doc value instead.
 */
const NO_STORED_FIELDS = { _source: false, stored_fields: '_none_' } satisfies Partial<estypes.SearchRequest>;
export const ID_FIELDS = { ...NO_STORED_FIELDS, docvalue_fields: ['id'] } satisfies Partial<estypes.SearchRequest>;
export const TIMED_FIELDS = { ...NO_STORED_FIELDS, docvalue_fields: ['id', { field: 'createdAt', format: 'epoch_millis' }] } satisfies Partial<estypes.SearchRequest>;
const VECTOR_FIELDS = { ...NO_STORED_FIELDS, docvalue_fields: ['id', 'vectorBytes'] } satisfies Partial<estypes.SearchRequest>;
const TIMES_FIELDS = { ...NO_STORED_FIELDS, docvalue_fields: ['id', 'timesBytes'] } satisfies Partial<estypes.SearchRequest>;

/** The id of a hit of a request made with ID_FIELDS, TIMED_FIELDS or VECTOR_FIELDS. */
export function hitId(hit: estypes.SearchHit<unknown>): string {
  return String((hit.fields?.['id'] as unknown[] | undefined)?.[0]);
}

/** The creation time of a hit of a request made with TIMED_FIELDS. */
export function hitCreatedAt(hit: estypes.SearchHit<unknown>): number {
  return Number((hit.fields?.['createdAt'] as unknown[] | undefined)?.[0]);
}

/** Both halves of the scope, always together: a tenant's filter alone would show its other end users. */
export function scopeFilter(scope: Scope): Query[] {
  return [{ term: { tenantId: scope.tenantId } }, { term: { endUserId: scope.endUserId } }];
}

/** The scope and, when given, a memory filter's clauses: what every query of one end user's memories filters on. */
export function scopedFilter(scope: Scope, filter: MemoryFilter | undefined): Query[] {
  return filter ? [...scopeFilter(scope), ...filterClauses(filter)] : scopeFilter(scope);
}

/**
 * Memories in [from, to): one of their event ranges intersects it or, when they have none, their creation time
 * lies inside it. Infinite bounds are left open. Both halves are date ranges in epoch millis, so the edges behave
 * like the embedded store's: an interval [start, end) matches when start < to and end > from.
 */
export function timeRangeFilter(range: { from: number; to: number }): Query {
  const bounds = openBounds(range);
  return {
    bool: {
      minimum_should_match: 1,
      should: [
        { range: { eventRanges: { ...bounds, relation: 'intersects', format: 'epoch_millis' } } },
        {
          bool: {
            must_not: [{ exists: { field: 'eventRanges' } }],
            filter: [{ range: { createdAt: { ...bounds, format: 'epoch_millis' } } }],
          },
        },
      ],
    },
  };
}

/**
 * num_candidates: how many nearest neighbours each shard collects before the best k are kept. Ten per result and at
 * least `minCandidates` (default 1,000, chosen by measurement: README.md) keeps recall high for the k a search asks
 * (tens); Elasticsearch caps it at 10,000.
 * While an end user has no more filtered memories than this, Lucene scores all of them exactly instead of walking
 * the graph, so small users get exact results.
 */
export function numCandidates(k: number, minCandidates: number): number {
  return Math.min(MAX_CANDIDATES, Math.max(minCandidates, 10 * k, k));
}

/**
 * The kNN search of one end user. The scope, the time range and the memory filter sit INSIDE the knn clause as its
 * filter, so the graph search only ever accepts that user's matching documents and returns k of them; a filter
 * outside (a post filter or the query) would cut the k global neighbours afterwards and could leave fewer than k,
 * or none.
 */
export function knnSearchRequest(index: string, scope: Scope, query: VectorQuery, minCandidates: number): estypes.SearchRequest {
  const k = Math.min(query.k, MAX_CANDIDATES);
  const filter = scopedFilter(scope, query.filter);
  if (query.timeRange) filter.push(timeRangeFilter(query.timeRange));
  return {
    index,
    knn: {
      field: 'vector',
      query_vector: Array.from(query.vector),
      k,
      num_candidates: numCandidates(k, minCandidates),
      filter,
    },
    size: k,
    // The hits' creation times, for episode context.
    ...TIMED_FIELDS,
    track_total_hits: false,
  };
}

/** Elasticsearch reports cosine similarity as (1 + cos) / 2, so that scores are never negative. */
export function cosineFromScore(score: number): number {
  return 2 * score - 1;
}

/** All memory ids of one end user, a page at a time in id order (search_after on the unique id). */
export function idsPageRequest(index: string, scope: Scope, pageSize: number, after: string | undefined): estypes.SearchRequest {
  return {
    index,
    query: { bool: { filter: scopeFilter(scope) } },
    sort: [{ id: 'asc' }],
    size: pageSize,
    ...NO_STORED_FIELDS,
    track_total_hits: false,
    ...(after === undefined ? {} : { search_after: [after] }),
  };
}

/**
 * BM25 over the pre-analysed lexicalTerms of one end user's memories (and the time range): any of the terms may
 * match, each once, as the embedded index counts them (a repeated term would weigh twice in Lucene's boolean
 * query), each boosted by its weight (see userTermBoosts), so the idf is the end user's. `preference` names the
 * shard copy the weights' statistics were read from (searchPreference).
 */
export function textSearchRequest(index: string, scope: Scope, query: Pick<TextQuery, 'k' | 'timeRange' | 'filter'>, boosts: ReadonlyMap<string, number>, preference?: string): estypes.SearchRequest {
  const k = Math.min(query.k, MAX_CANDIDATES);
  const filter = scopedFilter(scope, query.filter);
  if (query.timeRange) filter.push(timeRangeFilter(query.timeRange));
  const should = [...boosts].map(([term, boost]) => ({ term: { lexicalTerms: { value: term, boost } } }));
  return {
    index,
    query: { bool: { should, minimum_should_match: 1, filter } },
    size: k,
    ...TIMED_FIELDS,
    track_total_hits: false,
    ...(preference === undefined ? {} : { preference }),
  };
}

/** Memories of one end user holding any of the identifiers exactly, newest first (ties by id). */
export function identifiersRequest(index: string, scope: Scope, identifiers: string[], limit: number, filter?: MemoryFilter): estypes.SearchRequest {
  return {
    index,
    query: { bool: { filter: [...scopedFilter(scope, filter), { terms: { identifiers } }] } },
    sort: [{ createdAt: 'desc' }, { id: 'asc' }],
    size: Math.min(limit, MAX_CANDIDATES),
    ...ID_FIELDS,
    track_total_hits: false,
  };
}

/** Which of some memories of one end user pass a filter (at most MAX_CANDIDATES ids a request). */
export function matchingRequest(index: string, scope: Scope, ids: string[], filter: MemoryFilter): estypes.SearchRequest {
  return {
    index,
    query: { bool: { filter: [...scopedFilter(scope, filter), { terms: { id: ids } }] } },
    size: Math.min(ids.length, MAX_CANDIDATES),
    ...ID_FIELDS,
    track_total_hits: false,
  };
}

/** The creation times of some memories of one end user, without their vectors. */
export function creationTimesRequest(index: string, scope: Scope, ids: string[]): estypes.SearchRequest {
  return byIdsRequest(index, scope, ids, TIMED_FIELDS);
}

/** The vectors of these memories from the vectorBytes doc values: no document is fetched (see NO_STORED_FIELDS). */
export function vectorsRequest(index: string, scope: Scope, ids: string[]): estypes.SearchRequest {
  return byIdsRequest(index, scope, ids, VECTOR_FIELDS);
}

/** What their moments in a time range are computed from, of these memories read from _source (timedPageRequest's fallback). */
export function timedSourcesRequest(index: string, scope: Scope, ids: string[]): estypes.SearchRequest {
  return byIdsRequest(index, scope, ids, { _source: TIMED_SOURCE });
}

/** A binary doc value of a hit of a request that asked for it; null for a document written before the field existed. */
export function hitBytes(hit: estypes.SearchHit<unknown>, field: 'vectorBytes' | 'timesBytes'): string | null {
  const value = (hit.fields?.[field] as unknown[] | undefined)?.[0];
  return typeof value === 'string' ? value : null;
}

function byIdsRequest(index: string, scope: Scope, ids: string[], fields: Partial<estypes.SearchRequest>): estypes.SearchRequest {
  return {
    index,
    query: { bool: { filter: [...scopeFilter(scope), { terms: { id: ids } }] } },
    size: Math.min(ids.length, MAX_CANDIDATES),
    ...fields,
    track_total_hits: false,
  };
}

/**
 * Memories of one end user created within windowMs of any of the instants, scored against the vector: one kNN
 * whose filter is the windows (merged first, so a burst of nearby instants costs one range clause). While the windows
 * hold no more than `limit` memories, Lucene scores every one of them exactly; past that (an import, many memories a
 * minute) any `limit` of them will do as neighbours (VectorStore.createdNear), so the graph search is asked for no
 * more candidates than it returns: more would only buy an exact choice among a burst at several times the cost.
 */
export function createdNearRequest(index: string, scope: Scope, query: NearQuery): estypes.SearchRequest {
  const k = Math.min(query.limit, MAX_CANDIDATES);
  const windows = mergedWindows(query.instants, query.windowMs);
  return {
    index,
    knn: {
      field: 'vector',
      query_vector: Array.from(query.vector),
      k,
      num_candidates: k,
      filter: [
        ...scopedFilter(scope, query.filter),
        { bool: { minimum_should_match: 1, should: windows.map(([gte, lte]) => ({ range: { createdAt: { gte, lte, format: 'epoch_millis' } } })) } },
      ],
    },
    size: k,
    ...TIMED_FIELDS,
    track_total_hits: false,
  };
}

/** The scope, time and memory filter of one end user's memories in [from, to). */
export function inRangeQuery(scope: Scope, range: { from: number; to: number }, filter?: MemoryFilter): Query {
  return { bool: { filter: [...scopedFilter(scope, filter), timeRangeFilter(range)] } };
}

/**
 * How many of the end user's memories (passing `filter`) each time window holds, as inRangeQuery counts them: one
 * search with a bucket per window, whatever their number. `within`, when given, bounds the documents bucketed (the
 * widest window); without it every memory of the end user is.
 */
export function windowCountsRequest(index: string, scope: Scope, windows: ReadonlyArray<{ from: number; to: number }>, within?: { from: number; to: number }, filter?: MemoryFilter): estypes.SearchRequest {
  return {
    index,
    size: 0,
    track_total_hits: false,
    query: within ? inRangeQuery(scope, within, filter) : { bool: { filter: scopedFilter(scope, filter) } },
    aggs: { windows: { filters: { filters: windows.map(timeRangeFilter) } } },
  };
}

const TIMED_SOURCE = ['id', 'createdAt', 'eventTimes'];

/**
 * A page of the memories `query` matches, in id order, with what their moment in a range is computed from: the
 * timesBytes doc value, so no document is fetched (a range can hold thousands).
 */
export function timedPageRequest(index: string, query: Query, pageSize: number, after: string | undefined): estypes.SearchRequest {
  return {
    index,
    query,
    sort: [{ id: 'asc' }],
    size: pageSize,
    ...TIMES_FIELDS,
    track_total_hits: false,
    ...(after === undefined ? {} : { search_after: [after] }),
  };
}

/** Bounds of a [from, to) range query, infinite ones left open. */
function openBounds(range: { from: number; to: number }): { gte?: number; lt?: number } {
  return { ...(Number.isFinite(range.from) ? { gte: range.from } : {}), ...(Number.isFinite(range.to) ? { lt: range.to } : {}) };
}

/**
 * The conditions of a memory filter (memory-filter.ts of @memory/ports) as filter clauses, ANDed by the bool filter
 * they go into. Metadata compares the texts indexed in the flattened `metadataText`; a document without the key has
 * no such term, so it fails the condition and passes its `not` (must_not), as matchesFilter decides.
 */
export function filterClauses(filter: MemoryFilter): Query[] {
  const clauses: Query[] = [];
  if (filter.memoryTypes) clauses.push({ terms: { memoryType: filter.memoryTypes } });
  if (filter.jobIds) clauses.push({ terms: { jobId: filter.jobIds } });
  if (filter.created) clauses.push({ range: { createdAt: { ...openBounds(filter.created), format: 'epoch_millis' } } });
  if (filter.events) clauses.push(timeRangeFilter(filter.events));
  for (const [key, texts] of Object.entries(filter.metadata ?? {})) clauses.push({ terms: { [`metadataText.${key}`]: texts } });
  if (filter.any) clauses.push({ bool: { should: filter.any.map((alternative) => ({ bool: { filter: filterClauses(alternative) } })), minimum_should_match: 1 } });
  if (filter.not) clauses.push({ bool: { must_not: [{ bool: { filter: filterClauses(filter.not) } }] } });
  return clauses;
}

/**
 * One page of an end user's memories, newest first (createdAt, then id, both descending), after the previous page's
 * last memory (search_after on the same two keys): keyset pagination. Read without the vector and derived fields.
 */
export function listRequest(index: string, scope: Scope, query: ListQuery): estypes.SearchRequest {
  return {
    index,
    query: { bool: { filter: scopedFilter(scope, query.filter) } },
    sort: [{ createdAt: 'desc' }, { id: 'desc' }],
    size: Math.min(query.limit, MAX_CANDIDATES),
    _source: { excludes: ['vector', ...DERIVED] },
    track_total_hits: false,
    ...(query.after === undefined ? {} : { search_after: [query.after.createdAt, query.after.id] }),
  };
}
