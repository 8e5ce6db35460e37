import { MemoryServiceError } from '@memory/platform';
import type { MemoryMetadata, MemoryRecord } from './memory.js';
import { momentInRange, type TimeRange } from './time-range.js';

/**
 * The meaning of VectorStore.list, shared by every adapter: which memories a filter keeps, and their order (newest
 * first: createdAt descending, then id descending). Every condition given must hold (AND).
 */
export interface MemoryListFilter {
  /** Any of these memory types. */
  memoryTypes?: string[];
  /** Created in [from, to), ms epoch; either bound may be infinite. */
  created?: TimeRange;
  /** Event times overlapping [from, to) as momentInRange decides (creation time for memories without any). */
  events?: TimeRange;
  jobId?: string;
  /** Each key's stored value, in its string form (metadataValueText), equals the given text. */
  metadata?: Record<string, string>;
}

/** Where a page ends: the last memory it returned. The next page starts with the memory just after it in list order. */
export interface ListPosition {
  createdAt: number;
  id: string;
}

export interface ListQuery {
  limit: number;
  after?: ListPosition;
  filter?: MemoryListFilter;
}

/** A memory as a listing returns it: every field but the vector, which nothing that lists memories needs. */
export type StoredMemory = Omit<MemoryRecord, 'vector'>;

/** How a metadata value is compared by a filter: numbers and booleans by their JavaScript string form ("2.5", "true"). */
export function metadataValueText(value: string | number | boolean): string {
  return String(value);
}

/** Each metadata value in its string form, what the filter compares (and what Elasticsearch indexes). */
export function metadataTexts(metadata: MemoryMetadata | null | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(metadata ?? {}).map(([key, value]) => [key, metadataValueText(value)]));
}

/** Negative when `a` comes before `b` in list order (newest first, then the larger id first). */
export function compareNewestFirst(a: ListPosition, b: ListPosition): number {
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

const inCreated = (range: TimeRange, createdAt: number) => createdAt >= range.from && createdAt < range.to;

/** Whether the memory passes every condition of the filter. */
export function matchesListFilter(filter: MemoryListFilter, memory: Pick<MemoryRecord, 'memoryType' | 'jobId' | 'createdAt' | 'eventTimes' | 'metadata'>): boolean {
  if (filter.memoryTypes && !filter.memoryTypes.includes(memory.memoryType)) return false;
  if (filter.jobId !== undefined && memory.jobId !== filter.jobId) return false;
  if (filter.created && !inCreated(filter.created, memory.createdAt)) return false;
  if (filter.events && momentInRange(filter.events, memory) === null) return false;
  if (filter.metadata) {
    const stored = memory.metadata ?? {};
    for (const [key, text] of Object.entries(filter.metadata)) {
      const value = Object.hasOwn(stored, key) ? stored[key] : undefined;
      if (value === undefined || metadataValueText(value) !== text) return false;
    }
  }
  return true;
}

const isRange = (range: unknown): boolean => {
  const { from, to } = (range ?? {}) as { from?: unknown; to?: unknown };
  return typeof from === 'number' && typeof to === 'number' && !Number.isNaN(from) && !Number.isNaN(to);
};
const isStrings = (values: unknown): boolean => Array.isArray(values) && values.every((value) => typeof value === 'string');

/** Throws VECTORS.INVALID_QUERY (as every adapter's own checks do) unless the query is well formed. */
export function checkListQuery(query: ListQuery): void {
  const reject = (message: string): never => {
    throw new MemoryServiceError('VECTORS.INVALID_QUERY', message);
  };
  if (!Number.isInteger(query?.limit) || query.limit < 0) reject(`limit must be a whole number >= 0, got ${String(query?.limit)}`);
  const { after, filter } = query;
  if (after !== undefined && (!Number.isFinite(after?.createdAt) || typeof after.id !== 'string')) reject('after needs a finite createdAt and a string id');
  if (filter === undefined) return;
  if (filter.memoryTypes !== undefined && !isStrings(filter.memoryTypes)) reject('filter.memoryTypes must be an array of strings');
  if (filter.created !== undefined && !isRange(filter.created)) reject('filter.created needs numeric from and to');
  if (filter.events !== undefined && !isRange(filter.events)) reject('filter.events needs numeric from and to');
  if (filter.jobId !== undefined && typeof filter.jobId !== 'string') reject('filter.jobId must be a string');
  if (filter.metadata !== undefined && (typeof filter.metadata !== 'object' || filter.metadata === null || !isStrings(Object.values(filter.metadata)))) reject('filter.metadata must map keys to strings');
}
