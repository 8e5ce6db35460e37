/**
 * Quick throughput check of durable appends: N concurrent producers, each awaiting its append before the next,
 * for a few seconds. Run: node --conditions=source --import tsx libs/adapters/eventlog-embedded/scripts/bench-append.ts [producers] [seconds] [recordsPerAppend]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedEventLog } from '../src/index.js';

const producers = Number(process.argv[2] ?? 64);
const seconds = Number(process.argv[3] ?? 3);
const perAppend = Number(process.argv[4] ?? 1);

const dir = await mkdtemp(join(tmpdir(), 'eventlog-bench-'));
const log = await createEmbeddedEventLog({ dir });
await log.ensureTopics([{ name: 'bench', partitions: 8 }]);
const value = Buffer.alloc(512, 7);
let appends = 0;
const latencies: number[] = [];
const deadline = Date.now() + seconds * 1000;
const started = Date.now();
await Promise.all(
  Array.from({ length: producers }, async (_, producer) => {
    for (let i = 0; Date.now() < deadline; i++) {
      const t0 = performance.now();
      await log.append('bench', Array.from({ length: perAppend }, (_, j) => ({ key: `user-${producer}-${j}`, value, headers: { seq: String(i) } })));
      latencies.push(performance.now() - t0);
      appends++;
    }
  }),
);
const elapsed = (Date.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const pct = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(2);
console.log(
  `${producers} producers, ${perAppend} record(s)/append, ${elapsed.toFixed(1)}s: ${Math.round(appends / elapsed)} appends/s, ` +
    `${Math.round((appends * perAppend) / elapsed)} records/s, latency p50 ${pct(0.5)}ms p99 ${pct(0.99)}ms`,
);
await log.close();
await rm(dir, { recursive: true, force: true });
