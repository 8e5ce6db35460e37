import { compareNewestFirst, filterPredicate, rangeMiddle, type FilterFacts, type ListPosition, type MemoryFilter, type ScoredId, type ScoredTimedId, type TimedId } from '@memory/ports';
import { CreationOrder } from './creation-order.js';
import { IntervalIndex } from './interval-index.js';
import { createBlock, paddedStride, writeNormalised, type VectorBlock } from './vector-block.js';
import { matchesTimeRange, type TimeRange } from './time-filter.js';
import { TopK } from '@memory/lexical';

const INITIAL_CAPACITY = 64;
/**
 * Candidates kept from a quantised first pass for k wanted: its scores are within about 0.01 of the exact ones, so
 * the k best are among the best 2k + 64 by a wide margin (checked against the exact scan: the README's Performance
 * section).
 */
const candidatesFor = (k: number) => 2 * k + 64;
/** Runs of marked rows shorter than this on average are scored as one span (see forEachRun). */
const MIN_MEAN_SPAN = 16;

/**
 * The in-memory kNN index of one end user: unit-length rows in one contiguous block (grown by doubling), the
 * memory id of each row, and what the time filter needs. Rows are dense: removing one moves the last row into its
 * place, so a search scans [0, size) with no holes. A large block also holds an int8 copy of its rows: a search then
 * scans that (a quarter of the bytes) for candidates and ranks them by their exact float scores. A memory filter is
 * decided on each row's FilterFacts, read from the records on the first filtered query (loadFacts) and kept in step
 * with upserts after that, so a filtered search marks the rows that pass and scans only those.
 */
export class ScopeIndex {
  readonly stride: number;
  private block: VectorBlock;
  private ids: string[] = [];
  private readonly slotOf = new Map<string, number>();
  private createdAt: Float64Array;
  private times: Array<Float64Array | null> = [];
  /** What a filter reads of each row; null for rows loaded from vectors alone, until loadFacts. */
  private facts: Array<FilterFacts | null> = [];
  private factsComplete = false;
  private readonly byCreation: CreationOrder;
  private readonly byTime = new IntervalIndex();
  /** Ties between equal scores go to the smaller id, so results do not depend on the order rows were loaded in. */
  private readonly byId = (a: number, b: number) => this.ids[a]! < this.ids[b]!;

  constructor(readonly dims: number) {
    this.stride = paddedStride(dims);
    this.block = createBlock(this.stride, INITIAL_CAPACITY);
    this.createdAt = new Float64Array(INITIAL_CAPACITY);
    this.byCreation = new CreationOrder(INITIAL_CAPACITY, (slot) => this.createdAt[slot]!, (slot) => this.ids[slot]!);
  }

  get size(): number {
    return this.ids.length;
  }

  has(id: string): boolean {
    return this.slotOf.has(id);
  }

  /** Makes room for `rows` rows at once, so a bulk load does not grow step by step. */
  reserve(rows: number): void {
    if (rows > this.block.capacity) this.growTo(2 ** Math.ceil(Math.log2(rows)));
  }

  /**
   * Adds or replaces one memory; the vector is normalised here, so scores are cosines whatever the caller sent.
   * `facts` are what filters read (every write has them; a load from the vectors alone has not).
   */
  upsert(id: string, vector: Float32Array, createdAt: number, times: Float64Array | null, facts: FilterFacts | null = null): void {
    let slot = this.slotOf.get(id);
    if (slot === undefined) {
      slot = this.ids.length;
      if (slot === this.block.capacity) this.growTo(slot * 2);
      this.ids.push(id);
      this.times.push(null);
      this.facts.push(null);
      this.slotOf.set(id, slot);
      this.createdAt[slot] = createdAt;
      this.byCreation.insert(slot);
    } else {
      this.byTime.remove(slot, this.intervalsOf(slot));
      if (this.createdAt[slot] !== createdAt) {
        this.byCreation.remove(slot);
        this.createdAt[slot] = createdAt;
        this.byCreation.insert(slot);
      }
    }
    this.block.writeRow(slot, vector);
    this.times[slot] = times && times.length > 0 ? Float64Array.from(times) : null;
    this.facts[slot] = facts;
    if (facts === null) this.factsComplete = false;
    this.byTime.add(slot, this.intervalsOf(slot));
  }

  remove(id: string): boolean {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return false;
    const last = this.ids.length - 1;
    this.byCreation.remove(slot);
    this.byTime.remove(slot, this.intervalsOf(slot));
    if (slot !== last) {
      this.byCreation.relabel(last, slot);
      this.byTime.relabel(last, slot, this.intervalsOf(last));
      const lastId = this.ids[last] as string;
      this.block.moveRow(last, slot);
      this.ids[slot] = lastId;
      this.createdAt[slot] = this.createdAt[last] as number;
      this.times[slot] = this.times[last] ?? null;
      this.facts[slot] = this.facts[last] ?? null;
      this.slotOf.set(lastId, slot);
    }
    this.ids.pop();
    this.times.pop();
    this.facts.pop();
    this.slotOf.delete(id);
    return true;
  }

  /** Whether every row's facts are known, so a filter can be decided (else the store calls loadFacts first). */
  get filterable(): boolean {
    return this.factsComplete || this.ids.length === 0;
  }

  /** Fills every row's facts from the records (`read` gives null for an id the records lack: it passes no filter). */
  loadFacts(read: (id: string) => FilterFacts | null): void {
    for (let slot = 0; slot < this.ids.length; slot++) this.facts[slot] = this.facts[slot] ?? read(this.ids[slot]!);
    this.factsComplete = true;
  }

  /** Which memories are in the index and pass the filter (the facts must be loaded: see filterable). */
  passing(filter: MemoryFilter): (id: string) => boolean {
    const passes = this.slotPredicate(filter);
    return (id) => {
      const slot = this.slotOf.get(id);
      return slot !== undefined && passes(slot);
    };
  }

  private slotPredicate(filter: MemoryFilter): (slot: number) => boolean {
    const matches = filterPredicate(filter);
    return (slot) => {
      const facts = this.facts[slot];
      return facts != null && matches(facts);
    };
  }

  /**
   * The k rows most similar to `query` (already checked to have `dims` entries) among those in `range` and passing
   * `filter`, best first: rows are filtered before they are scored, so k come back whenever k pass.
   */
  search(query: Float32Array, k: number, range?: TimeRange, filter?: MemoryFilter): ScoredId[] {
    const size = this.ids.length;
    if (size === 0 || k <= 0) return [];
    const ids = this.ids;
    const block = this.block;
    this.setQuery(query);
    const top = new TopK(Math.min(k, size), this.byId);
    const marks = this.passingRows(size, range, filter);
    if (!block.quantised) {
      this.forEachRun(size, marks, (start, end) => {
        block.score(start, end - start);
        offerRun(top, block.scores, start, end, marks);
      });
    } else {
      const candidates = new TopK(Math.min(candidatesFor(k), size), this.byId);
      this.forEachRun(size, marks, (start, end) => {
        block.scoreApproximate(start, end - start);
        offerRun(candidates, block.scores, start, end, marks);
      });
      for (const { slot } of candidates.drain()) top.offer(block.exactScore(slot), slot);
    }
    return top.drain().map(({ slot, score }) => ({ id: ids[slot] as string, score: clamp(score) }));
  }

  /**
   * Rows created within windowMs of one of the instants and passing the filter, the oldest `limit` of them (ties by
   * id), each with its creation time and exact cosine with `query`; most similar first, ties by id. The oldest
   * rather than the most similar when a burst holds more: the creation order finds them without scoring the burst
   * (at 100k memories created in minutes, scoring every one of them cost ~10 ms a search).
   */
  createdNear(instants: readonly number[], windowMs: number, limit: number, query: Float32Array, filter?: MemoryFilter): ScoredTimedId[] {
    const accept = filter ? this.slotPredicate(filter) : undefined;
    const near = this.byCreation.near(instants, windowMs, limit, accept);
    if (near.length === 0) return [];
    this.setQuery(query);
    return near
      .map((slot) => ({ id: this.ids[slot] as string, time: this.createdAt[slot] as number, score: clamp(this.block.exactScore(slot)) }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  private setQuery(query: Float32Array): void {
    const unit = new Float32Array(this.dims);
    writeNormalised(unit, query);
    this.block.setQuery(unit);
  }

  /** Marks (1) of the rows in the range and passing the filter; undefined when neither is given. */
  private passingRows(size: number, range: TimeRange | undefined, filter: MemoryFilter | undefined): Uint8Array | undefined {
    if (!range && !filter) return undefined;
    const marks = range ? this.byTime.matching(range, size) : new Uint8Array(size).fill(1);
    if (filter) {
      const passes = this.slotPredicate(filter);
      for (let slot = 0; slot < size; slot++) if (marks[slot] === 1 && !passes(slot)) marks[slot] = 0;
    }
    return marks;
  }

  /**
   * Calls `visit` for the spans of rows to score: [0, size), or each run of consecutive marked rows. Marks scattered
   * in short runs (a metadata filter, unlike a time range, rarely matches neighbouring rows) are visited as one span,
   * since a call per run of a row or two costs more than scoring the rows between; offerRun skips unmarked rows.
   */
  private forEachRun(size: number, marks: Uint8Array | undefined, visit: (start: number, end: number) => void): void {
    if (!marks) return visit(0, size);
    let runs = 0;
    for (let slot = 0; slot < size; slot++) if (marks[slot] === 1 && (slot === 0 || marks[slot - 1] !== 1)) runs++;
    if (runs * MIN_MEAN_SPAN > size) return visit(0, size);
    // Score only the runs of rows that pass: a narrow filter then costs far less than a full scan.
    let runStart = -1;
    for (let slot = 0; slot <= size; slot++) {
      const keep = slot < size && marks[slot] === 1;
      if (keep && runStart < 0) runStart = slot;
      if (!keep && runStart >= 0) {
        visit(runStart, slot);
        runStart = -1;
      }
    }
  }

  createdAtOf(id: string): number | undefined {
    const slot = this.slotOf.get(id);
    return slot === undefined ? undefined : (this.createdAt[slot] as number);
  }

  /** Whether the memory is in the index and falls in the range (see matchesTimeRange). */
  inRange(id: string, range: TimeRange): boolean {
    const slot = this.slotOf.get(id);
    return slot !== undefined && matchesTimeRange(range, this.createdAt[slot] as number, this.times[slot] ?? null);
  }

  /**
   * Memories in the range, nearest its middle first (ties by id), as nearestFirst orders them: moments come from the
   * interval index's sorted arrays and are ranked in a k-bounded heap; no vector or per-memory object is touched.
   */
  inTimeRange(range: TimeRange, limit: number, filter?: MemoryFilter): TimedId[] {
    const size = this.ids.length;
    const ids = this.ids;
    const middle = rangeMiddle(range);
    const nearest = new TopK(Math.min(limit, size), this.byId);
    const momentOf = new Map<number, number>();
    const passes = filter ? this.slotPredicate(filter) : null;
    this.byTime.forEachMoment(range, size, (slot, moment) => {
      if (passes && !passes(slot)) return;
      // Closer is better (distanceFromMiddle); every memory of a half-open range is infinitely far, and ids decide.
      const closeness = -Math.abs(moment - middle);
      if (closeness < nearest.floor) return;
      nearest.offer(closeness, slot);
      momentOf.set(slot, moment);
    });
    return nearest.drain().map(({ slot }) => ({ id: ids[slot] as string, time: momentOf.get(slot)! }));
  }

  countInTimeRange(range: TimeRange): number {
    let count = 0;
    this.byTime.forEachMoment(range, this.ids.length, () => count++);
    return count;
  }

  /**
   * Ids newest first (createdAt descending, then id descending): those after `after`, created in `created`, whose
   * event times fall in `events` (matchesTimeRange); `visit` says whether to go on. Starts by binary search and
   * stops at the oldest creation time wanted, so a page costs O(log n + rows visited).
   */
  newestFirst(options: { after?: ListPosition; created?: TimeRange; events?: TimeRange }, visit: (id: string) => boolean): void {
    const { after, created, events } = options;
    // Rows sorting before (created.to, '') are exactly those created before created.to.
    const bounds: ListPosition[] = [];
    if (after) bounds.push(after);
    if (created && created.to !== Infinity) bounds.push({ createdAt: created.to, id: '' });
    const start = bounds.sort(compareNewestFirst).pop();
    const from = created?.from ?? -Infinity;
    this.byCreation.newestFirst(start ? { time: start.createdAt, id: start.id } : null, (slot) => {
      const createdAt = this.createdAt[slot]!;
      if (createdAt < from) return false;
      if (events && !matchesTimeRange(events, createdAt, this.times[slot] ?? null)) return true;
      return visit(this.ids[slot]!);
    });
  }

  /** A row's event times as start, end pairs, or its creation time as an instant when it has none. */
  private intervalsOf(slot: number): Float64Array {
    return this.times[slot] ?? Float64Array.of(this.createdAt[slot]!, this.createdAt[slot]!);
  }

  private growTo(capacity: number): void {
    this.block = this.block.grow(capacity, this.ids.length);
    const createdAt = new Float64Array(capacity);
    createdAt.set(this.createdAt);
    this.createdAt = createdAt;
    this.byCreation.grow(capacity);
  }
}

/** Offers the scored rows of [start, end) to `top`, only the marked ones when there are marks. */
function offerRun(top: TopK, scores: Float32Array, start: number, end: number, marks: Uint8Array | undefined): void {
  let floor = top.floor;
  for (let slot = start; slot < end; slot++) {
    const score = scores[slot] as number;
    if (score >= floor && (!marks || marks[slot] === 1)) {
      top.offer(score, slot);
      floor = top.floor;
    }
  }
}

/** A cosine as float arithmetic may leave it, a hair outside [-1, 1]. */
function clamp(score: number): number {
  return Math.max(-1, Math.min(1, score));
}
