/**
 * kNN latency for one end user: `node --conditions=source --import tsx libs/adapters/vectors-embedded/test/knn.bench.ts [count] [dims]`
 * Writes `count` random unit vectors to a temporary store, then times the first query (which loads the index
 * from disk) and the mean of later queries, with and without a time filter, and with memory filters (the first
 * filtered query reads every record's filter facts once). Not part of the test run.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MemoryFilter } from '@memory/ports';
import { memoryRecord } from '@memory/testing';
import { createEmbeddedVectorStore } from '../src/index.js';

const count = Number(process.argv[2] ?? 100_000);
const dims = Number(process.argv[3] ?? 384);
const queries = 30;

function randomUnit(): Float32Array {
  const v = Float32Array.from({ length: dims }, () => Math.random() - 0.5);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

const dir = await mkdtemp(join(tmpdir(), 'knn-bench-'));
const store = createEmbeddedVectorStore({ dir });
const scope = { tenantId: 'bench', endUserId: 'user' };
try {
  const day = 86_400_000;
  let started = performance.now();
  for (let offset = 0; offset < count; offset += 5_000) {
    const batch = Array.from({ length: Math.min(5_000, count - offset) }, (_, i) =>
      memoryRecord(scope, `m${offset + i}`, dims, {
        vector: randomUnit(),
        createdAt: Date.UTC(2024, 0, 1) + ((offset + i) % 100) * day,
        memoryType: (offset + i) % 2 === 0 ? 'fact' : 'experience',
        metadata: { project: `p${(offset + i) % 10}`, priority: (offset + i) % 3 },
      }),
    );
    await store.upsert(batch);
  }
  const writeMs = performance.now() - started;

  started = performance.now();
  await store.knn(scope, { vector: randomUnit(), k: 10 });
  const loadMs = performance.now() - started;

  const vectors = Array.from({ length: queries }, randomUnit);
  const time = async (timeRange?: { from: number; to: number }, filter?: MemoryFilter) => {
    const begin = performance.now();
    for (const vector of vectors) await store.knn(scope, { vector, k: 10, ...(timeRange ? { timeRange } : {}), ...(filter ? { filter } : {}) });
    return (performance.now() - begin) / queries;
  };
  await time();
  const plainMs = await time();
  const filteredMs = await time({ from: Date.UTC(2024, 0, 1), to: Date.UTC(2024, 0, 1) + 50 * day });
  const narrowMs = await time({ from: Date.UTC(2024, 0, 1), to: Date.UTC(2024, 0, 1) + 5 * day });
  const oneProject: MemoryFilter = { metadata: { project: ['p3'] } };
  started = performance.now();
  await store.knn(scope, { vector: randomUnit(), k: 10, filter: oneProject });
  const firstFilteredMs = performance.now() - started;
  const tenthMs = await time(undefined, oneProject);
  const halfMs = await time(undefined, { memoryTypes: ['fact'] });
  const combinedMs = await time(undefined, { memoryTypes: ['fact'], metadata: { project: ['p1', 'p3'], priority: ['2'] }, not: { jobIds: ['job-m1'] } });
  console.log(
    JSON.stringify({
      count,
      dims,
      writeMs: Math.round(writeMs),
      firstQueryWithLoadMs: Math.round(loadMs),
      knnMsPerQuery: +plainMs.toFixed(2),
      knnMsPerQueryHalfInTimeRange: +filteredMs.toFixed(2),
      knnMsPerQuery5PercentInTimeRange: +narrowMs.toFixed(2),
      firstFilteredQueryWithFactsLoadMs: Math.round(firstFilteredMs),
      knnMsPerQuery10PercentMetadataFilter: +tenthMs.toFixed(2),
      knnMsPerQuery50PercentTypeFilter: +halfMs.toFixed(2),
      knnMsPerQueryTypeMetadataInNotFilter: +combinedMs.toFixed(2),
      rssMb: Math.round(process.memoryUsage().rss / 2 ** 20),
    }),
  );
} finally {
  await store.close();
  await rm(dir, { recursive: true, force: true });
}
