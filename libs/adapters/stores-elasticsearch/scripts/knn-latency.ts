// A quick measurement, not a test: kNN latency and recall for one end user with 10,000 memories, next to other
// users' memories in the same index. Run against the local node (npm run engines:up elasticsearch):
//   npx tsx --conditions=source libs/adapters/stores-elasticsearch/scripts/knn-latency.ts [dims] [perUser] [queries]
// It writes into indices of a prefix of its own and drops them at the end.
import type { MemoryRecord, Scope } from '@memory/ports';
import { memoryRecord, uniqueName } from '@memory/testing';
import { dropElasticsearchStores, elasticsearchStoresOptionsFromEnv, openElasticsearchStores } from '../src/index.js';

const dims = Number(process.argv[2] ?? 384);
const perUser = Number(process.argv[3] ?? 10_000);
const queries = Number(process.argv[4] ?? 200);
const otherUsers = 5;
const otherPerUser = 1_000;
const k = 10;

/** Deterministic pseudo-random unit vectors (xorshift). */
function randomVectors(count: number, seed: number): Float32Array[] {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x100000000 - 0.5;
  };
  return Array.from({ length: count }, () => {
    const v = Float32Array.from({ length: dims }, next);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

async function main(): Promise<void> {
  const options = { ...elasticsearchStoresOptionsFromEnv(), prefix: uniqueName('knn-latency'), dims, refresh: false as const };
  const stores = await openElasticsearchStores(options);
  try {
    const user: Scope = { tenantId: 'bench', endUserId: 'user-0' };
    const vectors = randomVectors(perUser, 42);
    const write = async (scope: Scope, list: Float32Array[], tag: string) => {
      for (let i = 0; i < list.length; i += 1_000) {
        const batch: MemoryRecord[] = list.slice(i, i + 1_000).map((vector, j) => memoryRecord(scope, `${tag}-${i + j}`, dims, { vector }));
        await stores.vectors.upsert(batch);
      }
    };
    const started = Date.now();
    await write(user, vectors, 'm');
    for (let u = 1; u <= otherUsers; u++) await write({ tenantId: 'bench', endUserId: `user-${u}` }, randomVectors(otherPerUser, 100 + u), 'o');
    // One refresh at the end instead of one per batch: the write rate, not the refresh policy, is measured here.
    await fetch(new URL(`/${options.prefix}-memories/_refresh`, options.node), { method: 'POST' });
    const total = perUser + otherUsers * otherPerUser;
    console.log(`wrote ${total} memories (${perUser} for the measured user), ${dims} dims, in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    console.log(`count for the user: ${await stores.vectors.count(user)}`);

    const probes = randomVectors(queries, 7);
    const exact = probes.map((probe) =>
      vectors
        .map((vector, i) => ({ id: `m-${i}`, score: dot(vector, probe) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, k)
        .map((hit) => hit.id),
    );
    // The default, a wider graph search, and num_candidates >= the user's memories, where Lucene scores exactly.
    for (const minCandidates of [100, 1_000, 10_000]) {
      const reader = await openElasticsearchStores({ ...options, minCandidates });
      try {
        for (const probe of probes.slice(0, 10)) await reader.vectors.knn(user, { vector: probe, k }); // warm-up
        const times: number[] = [];
        let recallSum = 0;
        for (const [q, probe] of probes.entries()) {
          const t0 = process.hrtime.bigint();
          const hits = await reader.vectors.knn(user, { vector: probe, k });
          times.push(Number(process.hrtime.bigint() - t0) / 1e6);
          recallSum += hits.filter((hit) => exact[q]!.includes(hit.id)).length / k;
        }
        times.sort((a, b) => a - b);
        console.log(
          `num_candidates ${minCandidates}: knn k=${k} over ${queries} queries: p50 ${percentile(times, 0.5).toFixed(1)} ms, ` +
            `p95 ${percentile(times, 0.95).toFixed(1)} ms, max ${times[times.length - 1]!.toFixed(1)} ms; recall@${k} ${(recallSum / queries).toFixed(3)}`,
        );
      } finally {
        await reader.close();
      }
    }
  } finally {
    await stores.close();
    await dropElasticsearchStores(options);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
