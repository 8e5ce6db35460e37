import { MemoryServiceError } from '@memory/platform';
import type { GroupLag, OffsetPosition } from '@memory/ports';

/** One partition's retained range: `low` is the first offset still kept, `high` the offset the next record gets. */
export interface Watermarks {
  partition: number;
  low: number;
  high: number;
}

/** Rejects a position that names no offset, before anything is sent to the broker. */
export function checkPosition(to: OffsetPosition): void {
  switch (to?.kind) {
    case 'earliest':
    case 'latest':
      return;
    case 'offset':
      if (!Number.isInteger(to.offset) || to.offset < 0) throw new MemoryServiceError('EVENTLOG.INVALID_OFFSET', `offset must be a whole number >= 0, got ${to.offset}`);
      return;
    case 'timestamp':
      if (!Number.isFinite(to.timestamp)) throw new MemoryServiceError('EVENTLOG.INVALID_OFFSET', `timestamp must be epoch millis, got ${to.timestamp}`);
      return;
    case 'offsets':
      if (!Array.isArray(to.byPartition) || !to.byPartition.every((offset) => Number.isInteger(offset) && offset >= 0)) {
        throw new MemoryServiceError('EVENTLOG.INVALID_OFFSET', `byPartition must list whole numbers >= 0, got ${JSON.stringify(to.byPartition)}`);
      }
      return;
    default:
      throw new MemoryServiceError('EVENTLOG.INVALID_OFFSET', `unknown offset position ${JSON.stringify(to)}`);
  }
}

/**
 * The offset a position stands for in one partition, always within [low, high]. `byTimestamp` is what the broker
 * answered for a timestamp position (the first offset at or after it, or undefined / negative when no record is
 * that recent, which means the end). A per-partition list without an entry for this partition names nothing
 * (EVENTLOG.INVALID_OFFSET).
 */
export function offsetFor(to: OffsetPosition, marks: Watermarks, byTimestamp?: number): number {
  const clamp = (offset: number) => Math.min(Math.max(offset, marks.low), marks.high);
  switch (to.kind) {
    case 'earliest':
      return marks.low;
    case 'latest':
      return marks.high;
    case 'offset':
      return clamp(to.offset);
    case 'timestamp':
      return byTimestamp === undefined || byTimestamp < 0 ? marks.high : clamp(byTimestamp);
    case 'offsets': {
      const offset = to.byPartition[marks.partition];
      if (offset === undefined) throw new MemoryServiceError('EVENTLOG.INVALID_OFFSET', `no offset given for partition ${marks.partition}`);
      return clamp(offset);
    }
  }
}

/**
 * The port's view of a group's progress. Kafka answers -1 for a partition where the group committed nothing;
 * that group would start at the log start (the default startFrom is earliest), so everything retained is still
 * to do, as the embedded log reports it.
 */
export function lagOf(topic: string, committed: ReadonlyMap<number, number>, marks: Watermarks[]): GroupLag[] {
  return [...marks]
    .sort((a, b) => a.partition - b.partition)
    .map(({ partition, low, high }) => {
      const offset = committed.get(partition);
      return { topic, partition, committed: offset === undefined || offset < 0 ? low : offset, end: high };
    });
}

/**
 * How one fetched run of `available` records is cut into handler batches of at most `maxBatchSize`. A batch that
 * failed before is delivered again as it was: `retrySize` caps the first batch at the failed batch's size, so the
 * handler sees the same records, not the same records plus whatever arrived since.
 */
export function batchSizes(available: number, maxBatchSize: number, retrySize?: number): number[] {
  const sizes: number[] = [];
  let left = available;
  if (retrySize !== undefined && left > 0) {
    const first = Math.min(left, retrySize, maxBatchSize);
    sizes.push(first);
    left -= first;
  }
  while (left > 0) {
    const size = Math.min(left, maxBatchSize);
    sizes.push(size);
    left -= size;
  }
  return sizes;
}

/** Kafka's offsets travel as strings (int64); ours are numbers, exact up to 2^53. */
export function toOffset(value: string | number): number {
  const offset = Number(value);
  if (!Number.isSafeInteger(offset)) throw new MemoryServiceError('EVENTLOG.INVALID_OFFSET', `offset ${value} is not a safe integer`);
  return offset;
}
