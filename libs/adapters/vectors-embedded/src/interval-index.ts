import { momentOfMention, rangeMiddle } from '@memory/ports';
import { firstPositionNotBefore } from './sorted-position.js';
import type { TimeRange } from './time-filter.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/**
 * Interval length classes. An interval of length at most L that overlaps [from, to) starts in (from - L, to), so
 * each class is read from one start range; resolved time expressions are instants, hours, days, weeks, months or
 * years, so few intervals are much shorter than their class's bound. The last class is read whole.
 */
const LENGTH_CLASSES = [0, HOUR, DAY, 8 * DAY, 32 * DAY, 367 * DAY, Infinity] as const;

/** One length class: intervals sorted by start (ties by slot), in parallel typed arrays. */
class SortedIntervals {
  starts = new Float64Array(16);
  ends = new Float64Array(16);
  slots = new Int32Array(16);
  size = 0;

  constructor(readonly maxLength: number) {}

  add(start: number, end: number, slot: number): void {
    if (this.size === this.starts.length) this.grow();
    // After the intervals of the same start: rows mostly arrive in id order, so equal starts stay in it (a ranking
    // that breaks ties by id then rejects most of them at once) and appending moves nothing.
    const at = this.firstAfter(start);
    for (const array of [this.starts, this.ends, this.slots]) array.copyWithin(at + 1, at, this.size);
    this.starts[at] = start;
    this.ends[at] = end;
    this.slots[at] = slot;
    this.size++;
  }

  remove(start: number, slot: number): void {
    const at = this.find(start, slot);
    for (const array of [this.starts, this.ends, this.slots]) array.copyWithin(at, at + 1, this.size);
    this.size--;
  }

  relabel(start: number, from: number, to: number): void {
    this.slots[this.find(start, from)] = to;
  }

  /** Calls `visit` with every interval of this class that overlaps the range. */
  overlapping(range: TimeRange, visit: (slot: number, start: number, end: number) => void): void {
    const lowest = this.maxLength === Infinity ? -Infinity : range.from - this.maxLength;
    for (let at = lowest === -Infinity ? 0 : this.firstAtOrAfter(lowest); at < this.size; at++) {
      const start = this.starts[at]!;
      if (start >= range.to) break;
      const end = this.ends[at]!;
      // As matchesTimeRange: an interval overlaps; an instant (end <= start) must lie inside [from, to).
      if (end > start ? end > range.from : start >= range.from) visit(this.slots[at]!, start, end);
    }
  }

  private find(start: number, slot: number): number {
    for (let at = this.firstAtOrAfter(start); at < this.size && this.starts[at] === start; at++) if (this.slots[at] === slot) return at;
    throw new Error(`interval index: slot ${slot} has no interval starting at ${start}`);
  }

  private firstAfter(start: number): number {
    return firstPositionNotBefore(this.size, (at) => this.starts[at]! <= start);
  }

  private firstAtOrAfter(start: number): number {
    return firstPositionNotBefore(this.size, (at) => this.starts[at]! < start);
  }

  private grow(): void {
    const capacity = this.starts.length * 2;
    const starts = new Float64Array(capacity);
    const ends = new Float64Array(capacity);
    const slots = new Int32Array(capacity);
    starts.set(this.starts);
    ends.set(this.ends);
    slots.set(this.slots);
    Object.assign(this, { starts, ends, slots });
  }
}

/**
 * The time intervals of a ScopeIndex's rows (a row's event times, or its creation time as an instant when it has
 * none), for "which rows fall in [from, to)" in O(log n + found) per length class instead of a test of every row.
 * Rows are named by slot; the caller passes a row's intervals (start, end pairs) when it adds, removes or moves it.
 */
export class IntervalIndex {
  private readonly classes = LENGTH_CLASSES.map((length) => new SortedIntervals(length));
  private marks = new Uint8Array(0);
  private moments = new Float64Array(0);

  add(slot: number, intervals: Float64Array): void {
    for (let i = 0; i + 1 < intervals.length; i += 2) this.classOf(intervals[i]!, intervals[i + 1]!).add(intervals[i]!, intervals[i + 1]!, slot);
  }

  remove(slot: number, intervals: Float64Array): void {
    for (let i = 0; i + 1 < intervals.length; i += 2) this.classOf(intervals[i]!, intervals[i + 1]!).remove(intervals[i]!, slot);
  }

  relabel(from: number, to: number, intervals: Float64Array): void {
    for (let i = 0; i + 1 < intervals.length; i += 2) this.classOf(intervals[i]!, intervals[i + 1]!).relabel(intervals[i]!, from, to);
  }

  /** Marks (1) the slots in [0, rows) with an interval in the range; the array is reused by the next call. */
  matching(range: TimeRange, rows: number): Uint8Array {
    const marks = this.clearedMarks(rows);
    for (const sorted of this.classes) sorted.overlapping(range, (slot) => (marks[slot] = 1));
    return marks;
  }

  /**
   * Calls `visit` once for each row in the range with its moment there nearest the range's middle (momentInRange
   * of @memory/ports), computed from the sorted intervals themselves: no row's own times are read.
   */
  forEachMoment(range: TimeRange, rows: number, visit: (slot: number, moment: number) => void): void {
    if (this.moments.length < rows) this.moments = new Float64Array(Math.max(rows, this.moments.length * 2));
    const seen = this.clearedMarks(rows);
    const moments = this.moments;
    const middle = rangeMiddle(range);
    const touched: number[] = [];
    for (const sorted of this.classes) {
      sorted.overlapping(range, (slot, start, end) => {
        const moment = momentOfMention(range, middle, start, end);
        if (seen[slot] !== 1) {
          seen[slot] = 1;
          moments[slot] = moment;
          touched.push(slot);
        } else if (Math.abs(moment - middle) < Math.abs(moments[slot]! - middle)) {
          moments[slot] = moment;
        }
      });
    }
    for (const slot of touched) visit(slot, moments[slot]!);
  }

  /** The scratch marks, zero for [0, rows). */
  private clearedMarks(rows: number): Uint8Array {
    if (this.marks.length < rows) this.marks = new Uint8Array(Math.max(rows, this.marks.length * 2));
    this.marks.fill(0, 0, rows);
    return this.marks;
  }

  private classOf(start: number, end: number): SortedIntervals {
    const length = end - start;
    return this.classes.find((c) => length <= c.maxLength)!;
  }
}
