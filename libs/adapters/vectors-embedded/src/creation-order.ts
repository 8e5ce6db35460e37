import { mergedWindows } from '@memory/ports';
import { firstPositionNotBefore } from './sorted-position.js';

/**
 * The rows of a ScopeIndex sorted by creation time (ties by id): what "memories created near these instants" reads
 * in O(log n + found) instead of a scan of every row. Rows are named by slot; the index tells it when a row is
 * added, removed, or moved to another slot. Memories mostly arrive in time order, so an insertion usually lands at
 * the end; a back-dated one shifts the entries after it (a memmove of 4 bytes per row).
 */
export class CreationOrder {
  private order: Int32Array;
  private size = 0;

  constructor(
    capacity: number,
    /** Creation time and id of the row in a slot, as the index holds them now. */
    private readonly timeOf: (slot: number) => number,
    private readonly idOf: (slot: number) => string,
  ) {
    this.order = new Int32Array(capacity);
  }

  grow(capacity: number): void {
    const order = new Int32Array(capacity);
    order.set(this.order.subarray(0, this.size));
    this.order = order;
  }

  /** Adds a row whose time and id are already readable through the accessors. */
  insert(slot: number): void {
    const at = this.firstAfter(this.timeOf(slot), this.idOf(slot));
    this.order.copyWithin(at + 1, at, this.size);
    this.order[at] = slot;
    this.size++;
  }

  /** Removes a row; call while its time and id are still readable. */
  remove(slot: number): void {
    const at = this.positionOf(slot);
    this.order.copyWithin(at, at + 1, this.size);
    this.size--;
  }

  /** The row in slot `from` now lives in slot `to` (same time and id); call before the accessors show the move. */
  relabel(from: number, to: number): void {
    this.order[this.positionOf(from)] = to;
  }

  /**
   * Slots of the rows created within windowMs of any of the instants that `accept` takes (all when absent), oldest
   * first (ties by id), at most `limit`.
   */
  near(instants: readonly number[], windowMs: number, limit: number, accept?: (slot: number) => boolean): number[] {
    const found: number[] = [];
    for (const [from, to] of mergedWindows(instants, windowMs)) {
      for (let at = this.firstAtOrAfter(from); at < this.size && found.length < limit; at++) {
        const slot = this.order[at]!;
        if (this.timeOf(slot) > to) break;
        if (!accept || accept(slot)) found.push(slot);
      }
      if (found.length >= limit) break;
    }
    return found;
  }

  /**
   * Slots from the newest row to the oldest (ties by id, the larger first), beginning with the newest row that sorts
   * before `before` (a creation time and id), or the newest of all; `visit` says whether to go on. O(log n) to start.
   */
  newestFirst(before: { time: number; id: string } | null, visit: (slot: number) => boolean): void {
    for (let at = (before ? this.firstAfter(before.time, before.id) : this.size) - 1; at >= 0; at--) {
      if (!visit(this.order[at]!)) return;
    }
  }

  /** First position whose row was created at or after `time`. */
  private firstAtOrAfter(time: number): number {
    return firstPositionNotBefore(this.size, (at) => this.timeOf(this.order[at]!) < time);
  }

  /** Position where a row of this time and id goes: after every row that sorts before it. */
  private firstAfter(time: number, id: string): number {
    return firstPositionNotBefore(this.size, (at) => {
      const slot = this.order[at]!;
      const other = this.timeOf(slot);
      return other < time || (other === time && this.idOf(slot) < id);
    });
  }

  private positionOf(slot: number): number {
    const time = this.timeOf(slot);
    const id = this.idOf(slot);
    const at = this.firstAfter(time, id);
    if (this.order[at] === slot) return at;
    // Not where its time and id say: a caller broke the protocol. Find it anyway rather than corrupt the order.
    const found = this.order.subarray(0, this.size).indexOf(slot);
    if (found < 0) throw new Error(`creation order: slot ${slot} is not indexed`);
    return found;
  }
}
