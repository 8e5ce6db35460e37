import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { formatPerformanceTable, sentenceGenerator, type PerformanceRow } from '@memory/evaluation';
import { GROWTH_USAGE, parseGrowthArgs } from './growth-args.js';
import { BenchApi } from './api.js';
import { runLoad } from './load-process.js';
import { ingestMany, waitForJobs } from './perf-pipeline.js';
import type { Print } from './progress.js';
import { commandOptions, runMain } from './run-main.js';
import { startEmbeddedService, type Target } from './service.js';

/**
 * `npm run bench:growth`: one end user's memories growing step by step to --memories on the embedded default, and
 * at each step search latency over HTTP (1 and 8 clients, from the load generator's process), resident memory and
 * disk: how search cost grows with the number of memories. With --keep the data folder stays, and a later run
 * continues from what it holds (loading 100k memories takes about half an hour here; the searches minutes).
 */
/** The end user whose memories grow, unless the kept folder's manifest names another. */
const END_USER = 'growth';
const print: Print = (line) => process.stdout.write(`${line}\n`);

async function main(): Promise<number> {
  const options = commandOptions(() => parseGrowthArgs(process.argv.slice(2)), GROWTH_USAGE);
  if (typeof options === 'number') return options;
  const dataDir = options.keep ? resolve(options.keep) : mkdtempSync(join(tmpdir(), 'memory-growth-'));
  // The kept folder is the service's data folder; the manifest says whose memories it holds and how many.
  const manifestFile = join(dataDir, 'growth.json');
  const manifest = existsSync(manifestFile) ? (JSON.parse(readFileSync(manifestFile, 'utf8')) as { memories: number; endUser: string }) : { memories: 0, endUser: END_USER };
  let held = manifest.memories;
  const endUser = manifest.endUser;
  if (held > 0) print(`continuing with the ${held} memories of ${endUser} already in ${dataDir}`);
  let target: Target | null = null;
  const rows: PerformanceRow[] = [];
  const steps: Array<Record<string, unknown>> = [];
  try {
    target = await startEmbeddedService(dataDir, print);
    const api = new BenchApi(target.url, target.apiKey);
    const texts = sentenceGenerator(held + 1);
    const service = { url: target.url, apiKey: target.apiKey };
    const sizes = Array.from({ length: Math.ceil(options.memories / options.step) }, (_, i) => Math.min(options.memories, (i + 1) * options.step));
    for (const size of sizes) {
      if (size > held) {
        print(`\n[load] ${size - held} more memories, to ${size}`);
        const jobIds = await ingestMany({ api, texts, print }, endUser, size - held, 16, 'accepted');
        const { failed } = await waitForJobs({ api, texts, print }, jobIds, 'processed');
        if (failed) print(`  ${failed} jobs failed`);
        held = size;
        mkdirSync(dataDir, { recursive: true });
        writeFileSync(manifestFile, JSON.stringify({ memories: held, endUser }));
      }
      const footprint = await target.footprint();
      const step: Record<string, unknown> = { memories: held, rss_mb: footprint.rssMb, disk_bytes_per_memory: footprint.diskBytes === null ? null : footprint.diskBytes / held };
      for (const clients of [1, 8]) {
        print(`\n[search_ms] ${held} memories, ${options.queries} queries, ${clients} client(s)`);
        const latency = await runLoad({ kind: 'search', ...service, seed: held + clients, endUserIds: [endUser], queries: options.queries, clients }, print);
        step[`search_ms_c${clients}`] = latency;
        rows.push({ metric: 'search_ms', condition: `${held} memories, ${clients} client${clients > 1 ? 's' : ''}`, value: latency.count, unit: 'queries', latency });
      }
      rows.push({ metric: 'rss_mb', condition: `${held} memories`, value: footprint.rssMb, unit: 'MB' });
      steps.push(step);
    }
    print(`\nsearch as one end user's memories grow, embedded mode; ${cpus().length} x ${cpus()[0]?.model ?? 'unknown'}, Node ${process.version}\n`);
    print(formatPerformanceTable(rows));
    if (options.json) {
      const file = resolve(options.json);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify({ finishedAt: new Date().toISOString(), options, steps }, null, 2));
      print(`\nfigures written to ${file}`);
    }
    return 0;
  } finally {
    await target?.stop().catch(() => undefined);
    if (!options.keep) rmSync(dataDir, { recursive: true, force: true });
  }
}

runMain(main);
