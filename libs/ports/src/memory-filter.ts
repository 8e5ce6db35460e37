import { MemoryServiceError } from '@memory/platform';
import type { MemoryMetadata, MemoryRecord } from './memory.js';
import { momentInRange, type TimeRange } from './time-range.js';

/**
 * Which memories a listing or a search keeps, shared by every adapter and every store query that takes one: each
 * condition given must hold (AND); `any` and `not` combine sub-filters. A PDF's pages share their upload's job id,
 * which is also their `document.documentId`, so `jobIds` selects a document's pages.
 */
export interface MemoryFilter {
  /** Any of these memory types. */
  memoryTypes?: string[];
  /** Created in [from, to), ms epoch; either bound may be infinite. */
  created?: TimeRange;
  /** Event times overlapping [from, to) as momentInRange decides (creation time for memories without any). */
  events?: TimeRange;
  /** Made by any of these jobs. */
  jobIds?: string[];
  /** Each key's stored value, in its string form (metadataValueText), is one of the given texts; a memory without the key fails. */
  metadata?: Record<string, string[]>;
  /** At least one of these sub-filters holds (OR). */
  any?: MemoryFilter[];
  /** This sub-filter does not hold (NOT): a memory without a metadata key passes `not` of a condition on it. */
  not?: MemoryFilter;
}

/** What a filter is decided on: these fields of a stored memory. */
export type FilterFacts = Pick<MemoryRecord, 'memoryType' | 'jobId' | 'createdAt' | 'eventTimes' | 'metadata'>;

/** How a metadata value is compared by a filter: numbers and booleans by their JavaScript string form ("2.5", "true"). */
export function metadataValueText(value: string | number | boolean): string {
  return String(value);
}

/** Each metadata value in its string form, what the filter compares (and what Elasticsearch indexes). */
export function metadataTexts(metadata: MemoryMetadata | null | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(metadata ?? {}).map(([key, value]) => [key, metadataValueText(value)]));
}

const inCreated = (range: TimeRange, createdAt: number) => createdAt >= range.from && createdAt < range.to;

/** Whether the memory passes the filter: the meaning every store's filtered queries implement. */
export function matchesFilter(filter: MemoryFilter, memory: FilterFacts): boolean {
  return filterPredicate(filter)(memory);
}

/**
 * The filter as a predicate (matchesFilter's meaning), its lists turned into sets and its metadata into entries
 * once, for a store that decides it for many memories in one query.
 */
export function filterPredicate(filter: MemoryFilter): (memory: FilterFacts) => boolean {
  const conditions: Array<(memory: FilterFacts) => boolean> = [];
  const { memoryTypes, jobIds, created, events, metadata, any, not } = filter;
  if (memoryTypes) {
    const types = new Set(memoryTypes);
    conditions.push((memory) => types.has(memory.memoryType));
  }
  if (jobIds) {
    const jobs = new Set(jobIds);
    conditions.push((memory) => jobs.has(memory.jobId));
  }
  if (created) conditions.push((memory) => inCreated(created, memory.createdAt));
  if (events) conditions.push((memory) => momentInRange(events, memory) !== null);
  for (const [key, texts] of Object.entries(metadata ?? {})) {
    const accepted = new Set(texts);
    conditions.push((memory) => {
      const stored = memory.metadata;
      const value = stored && Object.hasOwn(stored, key) ? stored[key] : undefined;
      return value !== undefined && accepted.has(metadataValueText(value));
    });
  }
  if (any) {
    const alternatives = any.map(filterPredicate);
    conditions.push((memory) => alternatives.some((alternative) => alternative(memory)));
  }
  if (not) {
    const excluded = filterPredicate(not);
    conditions.push((memory) => !excluded(memory));
  }
  if (conditions.length === 1) return conditions[0]!;
  return (memory) => conditions.every((condition) => condition(memory));
}

const isRange = (range: unknown): boolean => {
  const { from, to } = (range ?? {}) as { from?: unknown; to?: unknown };
  return typeof from === 'number' && typeof to === 'number' && !Number.isNaN(from) && !Number.isNaN(to);
};
const isStrings = (values: unknown): boolean => Array.isArray(values) && values.every((value) => typeof value === 'string');
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Throws VECTORS.INVALID_QUERY (as every adapter's own checks do) unless the filter is absent or well formed. */
export function checkFilter(filter: MemoryFilter | undefined): void {
  if (filter !== undefined) checkFilterAt(filter, 'filter');
}

function checkFilterAt(filter: unknown, path: string): void {
  const reject = (message: string): never => {
    throw new MemoryServiceError('VECTORS.INVALID_QUERY', `${path}${message}`);
  };
  if (!isObject(filter)) reject(' must be an object');
  const { memoryTypes, created, events, jobIds, metadata, any, not } = filter as Record<string, unknown>;
  if (memoryTypes !== undefined && !isStrings(memoryTypes)) reject('.memoryTypes must be an array of strings');
  if (created !== undefined && !isRange(created)) reject('.created needs numeric from and to');
  if (events !== undefined && !isRange(events)) reject('.events needs numeric from and to');
  if (jobIds !== undefined && !isStrings(jobIds)) reject('.jobIds must be an array of strings');
  if (metadata !== undefined && (!isObject(metadata) || !Object.values(metadata).every(isStrings))) reject('.metadata must map keys to arrays of strings');
  if (any !== undefined) {
    if (!Array.isArray(any) || any.length === 0) reject('.any must be a non-empty array of filters');
    (any as unknown[]).forEach((alternative, at) => checkFilterAt(alternative, `${path}.any[${at}]`));
  }
  if (not !== undefined) checkFilterAt(not, `${path}.not`);
}
