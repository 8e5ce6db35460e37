import type { MemoryRecord, Scope } from '@memory/ports';
import { uniqueName } from './wait-for.js';

/** A scope of its own per test, so suites can run against a shared engine without seeing each other's data. */
export function freshScope(label = 'user'): Scope {
  return { tenantId: uniqueName('tenant'), endUserId: label };
}

/** A unit vector of `dims` dimensions from the given components (the rest zero). */
export function unitVector(dims: number, components: Record<number, number>): Float32Array {
  const vector = new Float32Array(dims);
  for (const [index, value] of Object.entries(components)) vector[Number(index)] = value;
  const norm = Math.hypot(...vector);
  return vector.map((v) => v / norm);
}

/** A complete memory record with plausible fields; tests override what they look at. */
export function memoryRecord(scope: Scope, id: string, dims: number, overrides: Partial<MemoryRecord> = {}): MemoryRecord {
  const createdAt = Date.UTC(2024, 0, 10, 12);
  return {
    id,
    tenantId: scope.tenantId,
    endUserId: scope.endUserId,
    jobId: `job-${id}`,
    kind: 'text',
    partIndex: 0,
    partCount: 1,
    content: `content of ${id}`,
    originalContent: `original content of ${id}`,
    userContext: null,
    memoryType: 'fact',
    themes: ['travel'],
    synonyms: ['trip'],
    keywords: ['paris'],
    entities: [{ name: 'Paris', type: 'place', key: 'place:paris' }],
    sentiment: 'positive',
    sentimentScore: 0.5,
    movieGenre: null,
    mentionedTitles: [],
    createdAt,
    acceptedAt: createdAt,
    eventTimes: [],
    embeddingModel: 'test-model@1',
    vector: unitVector(dims, { 0: 1 }),
    ...overrides,
  };
}

/** The record as plain data, vector as a number array, for deep equality. */
export function plainRecord(record: MemoryRecord): Omit<MemoryRecord, 'vector'> & { vector: number[] } {
  return { ...record, vector: Array.from(record.vector) };
}
