import { nearestFirst, type ScoredId, type TimedId, type TimedSource } from '@memory/ports';
import { createBlock, paddedStride, type VectorBlock } from './vector-block.js';
import { matchesTimeRange, type TimeRange } from './time-filter.js';
import { TopK } from '@memory/lexical';

const INITIAL_CAPACITY = 64;

/**
 * The in-memory exact kNN index of one end user: unit-length rows in one contiguous block (grown by doubling),
 * the memory id of each row, and what the time filter needs. Rows are dense: removing one moves the last row
 * into its place, so a search scans [0, size) with no holes.
 */
export class ScopeIndex {
  readonly stride: number;
  private block: VectorBlock;
  private ids: string[] = [];
  private readonly slotOf = new Map<string, number>();
  private createdAt: Float64Array;
  private times: Array<Float64Array | null> = [];

  constructor(readonly dims: number) {
    this.stride = paddedStride(dims);
    this.block = createBlock(this.stride, INITIAL_CAPACITY);
    this.createdAt = new Float64Array(INITIAL_CAPACITY);
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

  /** Adds or replaces one memory; the vector is normalised here, so scores are cosines whatever the caller sent. */
  upsert(id: string, vector: Float32Array, createdAt: number, times: Float64Array | null): void {
    let slot = this.slotOf.get(id);
    if (slot === undefined) {
      slot = this.ids.length;
      if (slot === this.block.capacity) this.growTo(slot * 2);
      this.ids.push(id);
      this.times.push(null);
      this.slotOf.set(id, slot);
    }
    const row = this.block.rows.subarray(slot * this.stride, (slot + 1) * this.stride);
    writeNormalised(row, vector);
    this.createdAt[slot] = createdAt;
    this.times[slot] = times && times.length > 0 ? Float64Array.from(times) : null;
  }

  remove(id: string): boolean {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return false;
    const last = this.ids.length - 1;
    if (slot !== last) {
      const lastId = this.ids[last] as string;
      const rows = this.block.rows;
      rows.copyWithin(slot * this.stride, last * this.stride, (last + 1) * this.stride);
      this.ids[slot] = lastId;
      this.createdAt[slot] = this.createdAt[last] as number;
      this.times[slot] = this.times[last] ?? null;
      this.slotOf.set(lastId, slot);
    }
    this.ids.pop();
    this.times.pop();
    this.slotOf.delete(id);
    return true;
  }

  /** The k rows most similar to `query` (already checked to have `dims` entries), best first. */
  search(query: Float32Array, k: number, range?: TimeRange): ScoredId[] {
    const size = this.ids.length;
    if (size === 0 || k <= 0) return [];
    const ids = this.ids;
    const top = new TopK(Math.min(k, size), (a, b) => (ids[a] as string) < (ids[b] as string));
    const block = this.block;
    const unit = new Float32Array(this.dims);
    writeNormalised(unit, query);
    block.setQuery(unit);
    if (!range) {
      block.score(0, size);
      offerRun(top, block.scores, 0, size);
    } else {
      // Score only the runs of rows that pass the filter: a narrow range then costs far less than a full scan.
      let runStart = -1;
      for (let slot = 0; slot <= size; slot++) {
        const keep = slot < size && matchesTimeRange(range, this.createdAt[slot] as number, this.times[slot] ?? null);
        if (keep && runStart < 0) runStart = slot;
        if (!keep && runStart >= 0) {
          block.score(runStart, slot - runStart);
          offerRun(top, block.scores, runStart, slot);
          runStart = -1;
        }
      }
    }
    return top.drain().map(({ slot, score }) => ({ id: ids[slot] as string, score: Math.max(-1, Math.min(1, score)) }));
  }

  /** The cosine of each of these memories (those in the index) with `query`. */
  scoreIds(query: Float32Array, ids: readonly string[]): ScoredId[] {
    const unit = new Float32Array(this.dims);
    writeNormalised(unit, query);
    const scored: ScoredId[] = [];
    for (const id of new Set(ids)) {
      const slot = this.slotOf.get(id);
      if (slot === undefined) continue;
      const row = this.block.rows.subarray(slot * this.stride, slot * this.stride + this.dims);
      let dot = 0;
      for (let j = 0; j < this.dims; j++) dot += (row[j] as number) * (unit[j] as number);
      scored.push({ id, score: Math.max(-1, Math.min(1, dot)) });
    }
    return scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
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

  /** Memories in the range, nearest its middle first (ties by id): a scan of the times, no vectors touched. */
  inTimeRange(range: TimeRange, limit: number): TimedId[] {
    const inRange: TimedSource[] = [];
    for (let slot = 0; slot < this.ids.length; slot++) {
      const times = this.times[slot] ?? null;
      if (!matchesTimeRange(range, this.createdAt[slot] as number, times)) continue;
      const eventTimes: Array<{ start: number; end: number }> = [];
      for (let i = 0; times && i + 1 < times.length; i += 2) eventTimes.push({ start: times[i] as number, end: times[i + 1] as number });
      inRange.push({ id: this.ids[slot] as string, createdAt: this.createdAt[slot] as number, eventTimes });
    }
    return nearestFirst(range, inRange, limit);
  }

  /** Memories created within windowMs of one of the instants (sorted ascending), oldest first. */
  createdNear(instants: readonly number[], windowMs: number, limit: number): TimedId[] {
    const found: TimedId[] = [];
    for (let slot = 0; slot < this.ids.length; slot++) {
      const createdAt = this.createdAt[slot] as number;
      if (nearestDistance(instants, createdAt) <= windowMs) found.push({ id: this.ids[slot] as string, time: createdAt });
    }
    found.sort((a, b) => a.time - b.time || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return found.slice(0, limit);
  }

  private growTo(capacity: number): void {
    this.block = this.block.grow(capacity, this.ids.length);
    const createdAt = new Float64Array(capacity);
    createdAt.set(this.createdAt);
    this.createdAt = createdAt;
  }
}

/** Distance from `value` to the nearest of the sorted instants (binary search). */
function nearestDistance(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((sorted[middle] as number) < value) low = middle + 1;
    else high = middle;
  }
  const after = low < sorted.length ? (sorted[low] as number) - value : Number.POSITIVE_INFINITY;
  const before = low > 0 ? value - (sorted[low - 1] as number) : Number.POSITIVE_INFINITY;
  return Math.min(after, before);
}

function offerRun(top: TopK, scores: Float32Array, start: number, end: number): void {
  let floor = top.floor;
  for (let slot = start; slot < end; slot++) {
    const score = scores[slot] as number;
    if (score >= floor) {
      top.offer(score, slot);
      floor = top.floor;
    }
  }
}

/** Writes vector / |vector| into `target` (zero-padding the rest); a zero vector stays zero and scores 0. */
function writeNormalised(target: Float32Array, vector: Float32Array): void {
  let norm = 0;
  for (let j = 0; j < vector.length; j++) norm += (vector[j] as number) * (vector[j] as number);
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let j = 0; j < vector.length; j++) target[j] = (vector[j] as number) * scale;
  target.fill(0, vector.length);
}
