import { MemoryServiceError } from '@memory/platform';
import type { MemoryRecord, MemoryVersion, Scope, ScoredId } from './memory.js';
import { checkFilter, type MemoryFilter } from './memory-filter.js';
import type { ListQuery, StoredMemory } from './memory-list.js';

export interface VectorQuery {
  vector: Float32Array;
  k: number;
  /** Only memories whose resolved event times or creation time overlap [from, to), ms epoch. */
  timeRange?: { from: number; to: number };
  /** Only memories passing it (matchesFilter), applied inside the search: k of them are returned when k exist. */
  filter?: MemoryFilter;
}

export interface TextQuery {
  /** The query's lexical terms (lexicalTerms of @memory/lexical), so every store analyses text the same way. */
  terms: string[];
  k: number;
  timeRange?: { from: number; to: number };
  /** Only memories passing it, applied before ranking (see VectorQuery.filter). */
  filter?: MemoryFilter;
}

/** A memory found by time: `time` is the moment of it (event time or creation time) nearest the range's middle. */
export interface TimedId {
  id: string;
  time: number;
}

export interface ScoredTimedId extends TimedId {
  score: number;
}

/** What VectorStore.createdNear looks for. */
export interface NearQuery {
  instants: number[];
  windowMs: number;
  limit: number;
  /** The vector the memories are scored against (the search's query). */
  vector: Float32Array;
  filter?: MemoryFilter;
}

/**
 * Throws VECTORS.INVALID_QUERY (as every adapter's own checks do) unless a createdNear query's instants, window, limit
 * and filter are well formed; the vector is the adapter's to check, against its dimensions.
 */
export function checkNearQuery(query: NearQuery): void {
  const reject = (message: string): never => {
    throw new MemoryServiceError('VECTORS.INVALID_QUERY', message);
  };
  const { instants, windowMs, limit } = query ?? {};
  if (!Array.isArray(instants) || instants.some((t) => typeof t !== 'number' || !Number.isFinite(t))) reject('instants must be finite numbers (ms epoch)');
  if (typeof windowMs !== 'number' || !Number.isFinite(windowMs) || windowMs < 0) reject(`windowMs must be a finite number >= 0, got ${String(windowMs)}`);
  if (!Number.isInteger(limit) || limit < 0) reject(`limit must be a whole number >= 0, got ${String(limit)}`);
  checkFilter(query.filter);
}

/**
 * A memory as read for a read-modify-write: its record and `revision`, which write of it the store holds (opaque;
 * Elasticsearch: the document's sequence number and primary term, embedded: a digest of the stored bytes).
 */
export interface RevisedMemory {
  record: MemoryRecord;
  revision: string;
}

/** A record to write only if its memory is still at the revision read (RevisedMemory), or, with null, still absent. */
export type ConditionalWrite = Pick<RevisedMemory, 'record'> & { ifRevision: RevisedMemory['revision'] | null };

/**
 * Memories with their vectors and metadata (Elasticsearch documents in production). Upserts are keyed by memory
 * id, so writing the same memory again replaces it and never duplicates, and a search sees either the old record
 * or the new one, never both nor neither (an update of a memory is one upsert).
 *
 * Every query search uses takes an optional MemoryFilter and applies it inside the query, before the limit: a
 * filtered query returns as many memories as an unfiltered one would when that many pass the filter.
 */
export interface VectorStore {
  upsert(memories: MemoryRecord[]): Promise<void>;
  get(scope: Scope, ids: string[]): Promise<MemoryRecord[]>;
  /** What get reads, each memory with its revision: what a conditional write (upsertIf) is conditioned on. */
  getRevised(scope: Scope, ids: string[]): Promise<RevisedMemory[]>;
  /**
   * Upserts each record only if its memory is still at `ifRevision` (null: still absent), checked and written
   * atomically per memory; answers the records that lost their condition, which are not written (another write came
   * between: read again and decide again). A write of the memory since the read always fails the condition when it
   * changed the record. Of one id given twice, the last is written, under its own condition.
   */
  upsertIf(writes: ConditionalWrite[]): Promise<MemoryRecord[]>;
  /** What get reads but the vectors: what a search shows and most rerankers read, for a fraction of the bytes. */
  getWithoutVectors(scope: Scope, ids: string[]): Promise<StoredMemory[]>;
  /**
   * The vectors of these memories, as a search sees them (Elasticsearch: once refreshed), without their records:
   * what a reranker comparing memories reads. Ids the store does not hold are left out.
   */
  vectors(scope: Scope, ids: string[]): Promise<Map<string, Float32Array>>;
  /** Nearest memories of one end user by cosine similarity, best first; the scope filter applies before ranking. */
  knn(scope: Scope, query: VectorQuery): Promise<ScoredId[]>;
  /**
   * Okapi BM25 over the memories' lexical terms (memoryTerms of @memory/lexical), best first; scores are raw BM25,
   * comparable only within one query.
   */
  textSearch(scope: Scope, query: TextQuery): Promise<ScoredId[]>;
  /** Memories holding one of these identifiers exactly (memoryIdentifiers of @memory/lexical): a keyword index. */
  findByIdentifiers(scope: Scope, identifiers: string[], limit: number, filter?: MemoryFilter): Promise<string[]>;
  /** Memories whose event times (or creation time, when they have none) overlap [from, to), nearest its middle first. */
  inTimeRange(scope: Scope, range: { from: number; to: number }, limit: number, filter?: MemoryFilter): Promise<TimedId[]>;
  /** How many memories each range holds, as inTimeRange finds them: one answer for several ranges, without reading one. */
  countInTimeRanges(scope: Scope, ranges: ReadonlyArray<{ from: number; to: number }>): Promise<number[]>;
  /**
   * Which of these memories pass the filter, in the order given; ids the store does not hold are left out. For
   * candidates found elsewhere (the graph), so they are filtered before they are ranked, as the store's own queries are.
   */
  matching(scope: Scope, ids: string[], filter: MemoryFilter): Promise<string[]>;
  /** When each of these memories was created (ms epoch); ids the store does not hold are left out. */
  creationTimes(scope: Scope, ids: string[]): Promise<Map<string, number>>;
  /**
   * Memories created within windowMs of any of these instants (ms epoch) and passing the filter, each with `time`
   * its creation time and `score` its cosine with `query`: the memories recorded around others, for episode context
   * in search. Most similar first, at most `limit`. Which ones when the windows hold more is the store's choice,
   * whichever it finds without scoring the whole of a burst (thousands created in a few minutes, which is not one
   * exchange): Elasticsearch the most similar (one kNN over the windows), the embedded store the oldest (its
   * creation order). Below the limit every store returns the same memories with the same scores.
   */
  createdNear(scope: Scope, query: NearQuery): Promise<ScoredTimedId[]>;
  /**
   * One page of an end user's memories, newest first (createdAt descending, then id descending), those after
   * `query.after` that pass `query.filter` (see memory-list.ts), at most `query.limit`. Keyset pagination: a page
   * starts from a position, not an offset, so writes and deletes between pages neither skip nor repeat a memory
   * that exists throughout.
   */
  list(scope: Scope, query: ListQuery): Promise<StoredMemory[]>;
  /** A memory's versions, oldest first (see versionsOf), or null when the end user has no such memory. */
  history(scope: Scope, id: string): Promise<MemoryVersion[] | null>;
  /** Every memory id of an end user, for maintenance and tests; not for the request path. */
  ids(scope: Scope): Promise<string[]>;
  count(scope: Scope): Promise<number>;
  delete(scope: Scope, ids: string[]): Promise<number>;
  close(): Promise<void>;
}

/** The end user's semantic centroid: the sum of its members' vectors and their spread. */
export interface Centroid {
  embeddingModel: string;
  /** Sum of member vectors (not normalised), so adding a member is exact. */
  sum: Float32Array;
  memoryCount: number;
  /** Sum of each member's similarity to the centroid at the time it joined. */
  similaritySum: number;
  /**
   * Set by get: which save of the centroid this is. A save conditioned on it fails with VECTORS.CENTROID_CHANGED
   * when another save or a reset came between (never the same value for two saves, even across a reset).
   */
  revision?: string;
}

/**
 * What a centroid records of one member: the version of the memory folded in (so a redelivered or replayed commit is
 * not counted twice) and its share of similaritySum (so a corrected member's share can be taken out exactly).
 */
export interface CentroidMember {
  version: number;
  similarity: number;
}

export interface CentroidStore {
  get(scope: Scope): Promise<Centroid | null>;
  /**
   * Which of these memory ids are already part of the centroid, with what it recorded of each; null for a member
   * recorded before members carried their version (its share is unknown: a change of it needs a recompute).
   */
  members(scope: Scope, memoryIds: string[]): Promise<Map<string, CentroidMember | null>>;
  /**
   * Saves the centroid and records these members (new ones, or a new version of one), atomically. With
   * `ifRevision`, only if the stored centroid is still that revision (null: still absent), else
   * VECTORS.CENTROID_CHANGED and nothing is written: how a read-modify-write keeps a concurrent recompute's result.
   */
  save(scope: Scope, centroid: Centroid, changedMembers: ReadonlyMap<string, CentroidMember>, condition?: { ifRevision: string | null }): Promise<void>;
  /**
   * Replaces the centroid and its whole member list with these (a recompute's result; null and no members: the user
   * has none), atomically, and only if the stored centroid is still `ifRevision` (null: still absent), else
   * VECTORS.CENTROID_CHANGED and nothing changes. No moment shows an empty centroid to a concurrent fold.
   */
  replace(scope: Scope, centroid: Centroid | null, members: ReadonlyMap<string, CentroidMember>, condition: { ifRevision: string | null }): Promise<void>;
  /** Removes the end user's centroid and its member list (an erasure of everything the user had). */
  reset(scope: Scope): Promise<void>;
  close(): Promise<void>;
}
