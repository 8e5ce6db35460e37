import type { TimedId } from './vector-store.js';

/** The meaning of VectorStore.inTimeRange, shared by every adapter: which memories are in a range, and in what order. */
export interface TimeRange {
  from: number;
  to: number;
}

/** What a memory's moment in a range is computed from (fields of MemoryRecord). */
export interface TimedSource {
  id: string;
  createdAt: number;
  eventTimes: ReadonlyArray<{ start: number; end: number }>;
}

/**
 * The point the nearest moments are measured from. A range open on one side has its middle at that infinity (every
 * memory is equally far, so ids decide); one open on both sides has none, and epoch 0 stands in so that no time
 * comes out NaN.
 */
export function rangeMiddle(range: TimeRange): number {
  const middle = (range.from + range.to) / 2;
  return Number.isNaN(middle) ? 0 : middle;
}

/** Whether one mention overlaps [from, to); an instant (end <= start) is the point [start, start]. */
function overlaps(range: TimeRange, start: number, end: number): boolean {
  return end > start ? start < range.to && end > range.from : start >= range.from && start < range.to;
}

/**
 * The moment of a memory in [from, to) nearest the range's middle, or null when the memory is not in the range.
 * A memory with event times is in the range when one of them overlaps it (its creation time does not count then);
 * one without, when its creation time is inside. For an interval mention the moment is the point of it nearest the
 * middle, clamped into the range; for an instant mention, or the creation time, it is that time itself.
 */
export function momentInRange(range: TimeRange, memory: Omit<TimedSource, 'id'>): number | null {
  if (memory.eventTimes.length === 0) return overlaps(range, memory.createdAt, memory.createdAt) ? memory.createdAt : null;
  const middle = rangeMiddle(range);
  let best: number | null = null;
  for (const { start, end } of memory.eventTimes) {
    if (!overlaps(range, start, end)) continue;
    const moment = momentOfMention(range, middle, start, end);
    if (best === null || Math.abs(moment - middle) < Math.abs(best - middle)) best = moment;
  }
  return best;
}

/** The moment of one mention that overlaps the range: for an interval its point nearest the middle, clamped into the range; for an instant, itself. */
export function momentOfMention(range: TimeRange, middle: number, start: number, end: number): number {
  return end > start ? Math.min(Math.max(middle, start, range.from), end, range.to) : start;
}

/** Distance of a found moment from the middle; infinite for every memory of a half-open range. */
export function distanceFromMiddle(range: TimeRange, time: number): number {
  return Math.abs(time - rangeMiddle(range));
}

/** The memories in the range, nearest the middle first (ties by id), at most `limit`. */
export function nearestFirst(range: TimeRange, memories: Iterable<TimedSource>, limit: number): TimedId[] {
  const found: Array<TimedId & { distance: number }> = [];
  for (const memory of memories) {
    const time = momentInRange(range, memory);
    if (time !== null) found.push({ id: memory.id, time, distance: distanceFromMiddle(range, time) });
  }
  // Compared, not subtracted: two infinite distances are a tie, not NaN.
  found.sort((a, b) => (a.distance < b.distance ? -1 : a.distance > b.distance ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return found.slice(0, limit).map(({ id, time }) => ({ id, time }));
}

/**
 * The meaning of VectorStore.createdNear's windows, shared by every adapter: [t - windowMs, t + windowMs] around
 * each instant, overlapping ones merged, in time order; so a burst of nearby instants reads one range.
 */
export function mergedWindows(instants: readonly number[], windowMs: number): Array<[from: number, to: number]> {
  const windows: Array<[number, number]> = [];
  for (const t of [...instants].sort((a, b) => a - b)) {
    const last = windows[windows.length - 1];
    if (last && t - windowMs <= last[1]) last[1] = t + windowMs;
    else windows.push([t - windowMs, t + windowMs]);
  }
  return windows;
}
