import type { TimeMention } from '@memory/contracts';
import type { MemoryRecord } from '@memory/ports';

/** A date_range value: an interval [gte, lt) or an instant [gte, lte]. */
export type EventRange = { gte: number; lt: number } | { gte: number; lte: number };

/** A memory as stored: every MemoryRecord field under its own name, the vector as numbers, plus derived fields. */
export type MemoryDocument = Omit<MemoryRecord, 'vector'> & { vector: number[]; eventRanges: EventRange[] };

/** Fields the adapter derives on write and drops on read. */
const DERIVED = ['eventRanges'] as const;

/**
 * One range per time mention. An instant (end <= start) becomes the point [start, start]: a range with lt <= gte
 * would be empty, and the embedded store counts such a mention as the point too.
 */
export function eventRanges(times: readonly TimeMention[]): EventRange[] {
  return times.map(({ start, end }) => (end > start ? { gte: start, lt: end } : { gte: start, lte: start }));
}

export function toMemoryDocument(record: MemoryRecord): MemoryDocument {
  const { vector, ...fields } = record;
  // Float32 values widen to doubles exactly and JSON prints them so that they parse back to the same float32.
  return { ...fields, vector: Array.from(vector), eventRanges: eventRanges(record.eventTimes) };
}

export function fromMemoryDocument(source: MemoryDocument): MemoryRecord {
  const record: Record<string, unknown> = { ...source, vector: Float32Array.from(source.vector) };
  for (const field of DERIVED) delete record[field];
  return record as unknown as MemoryRecord;
}
