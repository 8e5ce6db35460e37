import { MemoryServiceError } from '@memory/platform';
import type { MemoryRecord } from './memory.js';
import { checkFilter, type MemoryFilter } from './memory-filter.js';

/** Where a page ends: the last memory it returned. The next page starts with the memory just after it in list order. */
export interface ListPosition {
  createdAt: number;
  id: string;
}

/**
 * The meaning of VectorStore.list, shared by every adapter: the memories `filter` keeps (matchesFilter), newest
 * first (createdAt descending, then id descending), those after `after`, at most `limit`.
 */
export interface ListQuery {
  limit: number;
  after?: ListPosition;
  filter?: MemoryFilter;
}

/** A memory as a listing returns it: every field but the vector, which nothing that lists memories needs. */
export type StoredMemory = Omit<MemoryRecord, 'vector'>;

/** Negative when `a` comes before `b` in list order (newest first, then the larger id first). */
export function compareNewestFirst(a: ListPosition, b: ListPosition): number {
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** Throws VECTORS.INVALID_QUERY (as every adapter's own checks do) unless the query is well formed. */
export function checkListQuery(query: ListQuery): void {
  const reject = (message: string): never => {
    throw new MemoryServiceError('VECTORS.INVALID_QUERY', message);
  };
  if (!Number.isInteger(query?.limit) || query.limit < 0) reject(`limit must be a whole number >= 0, got ${String(query?.limit)}`);
  const { after, filter } = query;
  if (after !== undefined && (!Number.isFinite(after?.createdAt) || typeof after.id !== 'string')) reject('after needs a finite createdAt and a string id');
  checkFilter(filter);
}
