import type { TimeMention } from '@memory/contracts';
import { memoryIdentifiers, memoryTerms } from '@memory/lexical';
import { metadataTexts, type MemoryRecord, type StoredMemory, type TimedSource } from '@memory/ports';

/** A date_range value: an interval [gte, lt) or an instant [gte, lte]. */
export type EventRange = { gte: number; lt: number } | { gte: number; lte: number };

/** Fields the adapter derives from a memory on write, for searching; never part of a MemoryRecord. */
export interface DerivedFields {
  eventRanges: EventRange[];
  /** memoryTerms joined by spaces: analysed here, so Elasticsearch only splits on whitespace and ranks the same terms. */
  lexicalTerms: string;
  /** memoryIdentifiers, lower-cased, for exact lookup. */
  identifiers: string[];
  /** metadataTexts: each metadata value as the list filter compares it. */
  metadataText: Record<string, string>;
  /** The vector's float32 bytes (little-endian), base64: a doc value a search reads without parsing _source. */
  vectorBytes: string;
  /** The creation time, then each event time's start and end, float64 little-endian, base64: a memory's moments in a time range, read as a doc value. */
  timesBytes: string;
}

/** A memory as stored: every MemoryRecord field under its own name, the vector as numbers, plus derived fields. */
export type MemoryDocument = Omit<MemoryRecord, 'vector'> & { vector: number[] } & DerivedFields;

/** Fields the adapter derives on write and drops on read. */
export const DERIVED: readonly (keyof DerivedFields)[] = ['eventRanges', 'lexicalTerms', 'identifiers', 'metadataText', 'vectorBytes', 'timesBytes'];

/**
 * One range per time mention. An instant (end <= start) becomes the point [start, start]: a range with lt <= gte
 * would be empty, and the embedded store counts such a mention as the point too.
 */
export function eventRanges(times: readonly TimeMention[]): EventRange[] {
  return times.map(({ start, end }) => (end > start ? { gte: start, lt: end } : { gte: start, lte: start }));
}

/** The lexical fields of a memory; also how documents written before these fields existed are filled in (migrate.ts). */
export function lexicalFields(record: Parameters<typeof memoryTerms>[0]): Pick<DerivedFields, 'lexicalTerms' | 'identifiers'> {
  return { lexicalTerms: memoryTerms(record).join(' '), identifiers: memoryIdentifiers(record) };
}

export function toMemoryDocument(record: MemoryRecord): MemoryDocument {
  const { vector, ...fields } = record;
  // Float32 values widen to doubles exactly and JSON prints them so that they parse back to the same float32.
  return {
    ...fields,
    vector: Array.from(vector),
    eventRanges: eventRanges(record.eventTimes),
    ...lexicalFields(record),
    metadataText: metadataTexts(record.metadata),
    vectorBytes: vectorBytes(vector),
    timesBytes: timesBytes(record),
  };
}

/** What a memory's moments in a time range are computed from, as the timesBytes field holds it (never empty). */
export function timesBytes(times: Omit<TimedSource, 'id'>): string {
  const bytes = Buffer.alloc(8 * (1 + 2 * times.eventTimes.length));
  bytes.writeDoubleLE(times.createdAt, 0);
  times.eventTimes.forEach(({ start, end }, i) => {
    bytes.writeDoubleLE(start, 8 + 16 * i);
    bytes.writeDoubleLE(end, 16 + 16 * i);
  });
  return bytes.toString('base64');
}

/** The creation time and event times a timesBytes value holds. */
export function timesFromBytes(base64: string): Omit<TimedSource, 'id'> {
  const bytes = Buffer.from(base64, 'base64');
  const eventTimes = Array.from({ length: (bytes.length / 8 - 1) / 2 }, (_, i) => ({ start: bytes.readDoubleLE(8 + 16 * i), end: bytes.readDoubleLE(16 + 16 * i) }));
  return { createdAt: bytes.readDoubleLE(0), eventTimes };
}

/** A vector as the vectorBytes field holds it. */
export function vectorBytes(vector: Float32Array): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, i) => bytes.writeFloatLE(value, i * 4));
  return bytes.toString('base64');
}

/** The vector a vectorBytes value holds. */
export function vectorFromBytes(base64: string): Float32Array {
  const bytes = Buffer.from(base64, 'base64');
  const vector = new Float32Array(bytes.length / 4);
  for (let i = 0; i < vector.length; i++) vector[i] = bytes.readFloatLE(i * 4);
  return vector;
}

export function fromMemoryDocument(source: MemoryDocument): MemoryRecord {
  return { ...fromListedDocument(source), vector: Float32Array.from(source.vector) };
}

/** A document read without its vector (a listing) as a StoredMemory. */
export function fromListedDocument(source: Omit<MemoryDocument, 'vector'>): StoredMemory {
  const record: Record<string, unknown> = { ...source };
  for (const field of DERIVED) delete record[field];
  return record as unknown as StoredMemory;
}
