import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { formatPerformanceTable, sentenceGenerator, type PerformanceRow } from '@memory/evaluation';
import { BenchApi } from './api.js';
import { UsageError } from './args.js';
import { PERF_USAGE, parsePerfArgs } from './perf-args.js';
import { diskBytes, residentMb } from './perf-footprint.js';
import { PerfClient } from './perf-http.js';
import { edgeAccept, embedRaw, freshness, ingestMany, pipelineThroughput, searchLatency, waitForJobs, type PerfContext } from './perf-scenarios.js';
import type { Print } from './progress.js';
import { ServiceStartError, startEmbeddedService, type Target } from './service.js';

/**
 * `npm run bench`: the performance scenarios of issue 6 against a freshly started embedded service over HTTP,
 * a table on stdout and every figure in --json. The client runs in this process (no separate load generator yet),
 * so on a small machine it competes with the service for the same cores.
 */

/** Small scale, sized to finish in a few minutes on a 2-core machine. */
const SMALL = {
  edgeLevels: [16, 64],
  edgeSeconds: 8,
  embedTexts: 300,
  pipelineMemories: 1000,
  freshnessSeconds: 20,
  searchSizes: [1000, 10_000],
  searchQueries: 200,
  searchClients: [1, 8],
  seed: 20_260_601,
};

const print: Print = (line) => process.stdout.write(`${line}\n`);

async function main(): Promise<number> {
  let options;
  try {
    options = parsePerfArgs(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n\n${PERF_USAGE}\n`);
      return 2;
    }
    throw error;
  }
  if (options.help) {
    print(PERF_USAGE);
    return 0;
  }
  const scale = SMALL;
  const dataDir = mkdtempSync(join(tmpdir(), 'memory-perf-'));
  let target: Target | null = null;
  const figures: Record<string, unknown> = {};
  const rows: PerformanceRow[] = [];
  // Ctrl-C stops the service too, and removes its data: it would otherwise go on working through the backlog.
  const interrupted = async () => {
    if (target) await stopOrKill(target, 2_000);
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(130);
  };
  process.once('SIGINT', () => void interrupted());
  process.once('SIGTERM', () => void interrupted());
  try {
    target = await startEmbeddedService(dataDir, print);
    const runId = Date.now().toString(36);
    const ctx: PerfContext = {
      client: new PerfClient(target.url, target.apiKey),
      api: new BenchApi(target.url, target.apiKey),
      texts: sentenceGenerator(scale.seed),
      print,
      runId,
    };
    let memories = 0;
    const footprint = (label: string) => {
      const rss = residentMb(target!.pid());
      const bytes = diskBytes(dataDir);
      const perMemory = memories > 0 ? bytes / memories : null;
      figures[`footprint_${label}`] = { memories, rss_mb: rss, disk_bytes: bytes, disk_bytes_per_memory: perMemory };
      rows.push({ metric: 'rss_mb', condition: `${label} (${memories} in store)`, value: rss, unit: 'MB' });
      rows.push({ metric: 'disk_per_memory', condition: `${label} (${memories} in store)`, value: perMemory, unit: 'bytes' });
    };

    print(`\n[embed_raw_per_s] ${scale.embedTexts} memory texts, one per call, in the bench process`);
    const embedTexts = Array.from({ length: scale.embedTexts }, () => ctx.texts.memory());
    const raw = await embedRaw(dataDir, embedTexts, print);
    figures['embed_raw_per_s'] = raw;
    rows.push({ metric: 'embed_raw_per_s', condition: raw.model, value: raw.perS, unit: 'texts/s' });

    const searchUser = `search-${runId}`;
    print(`\n[pipeline_per_s] ${scale.pipelineMemories} memories, accepted as fast as possible, until all Completed`);
    const pipeline = await pipelineThroughput(ctx, searchUser, scale.pipelineMemories);
    memories += pipeline.memories - pipeline.failed;
    const limitRatio = pipeline.perS / raw.perS;
    figures['pipeline_per_s'] = pipeline;
    figures['limit_ratio'] = limitRatio;
    rows.push({ metric: 'pipeline_per_s', condition: `${pipeline.memories} memories`, value: pipeline.perS, unit: 'mem/s' });
    rows.push({ metric: 'limit_ratio', condition: 'pipeline / embed_raw', value: limitRatio, unit: '' });
    if (pipeline.failed) print(`  ${pipeline.failed} jobs failed`);

    let held = pipeline.memories;
    const searchFigures: Record<string, unknown> = {};
    for (const size of scale.searchSizes) {
      if (held < size) {
        print(`\n[load] ${size - held} more memories for the search user, to ${size}`);
        const jobIds = await ingestMany(ctx, searchUser, size - held, 16, 'accepted');
        const { failed } = await waitForJobs(ctx, jobIds, 'processed');
        memories += jobIds.length - failed;
        held = size;
      }
      const label = `${size / 1000}k`;
      footprint(label);
      for (const clients of scale.searchClients) {
        print(`\n[search_ms] one user holding ${label} memories, ${scale.searchQueries} queries, ${clients} client(s)`);
        const latency = await searchLatency(ctx, searchUser, scale.searchQueries, clients);
        searchFigures[`${label}_c${clients}`] = latency;
        rows.push({ metric: 'search_ms', condition: `${label} memories, ${clients} client${clients > 1 ? 's' : ''}`, value: latency.count, unit: 'queries', latency });
      }
      if (size === scale.searchSizes[0]) {
        // Freshness at the smaller size, before the bulk load, so its traffic is the only load on the service.
        const rate = Math.max(1, pipeline.perS / 2);
        print(`\n[freshness_ms] ${rate.toFixed(1)} memories/s (half of pipeline_per_s) for ${scale.freshnessSeconds} s, polling search every 20 ms`);
        const fresh = await freshness(ctx, rate, scale.freshnessSeconds);
        memories += fresh.sent;
        figures['freshness_ms'] = fresh;
        rows.push({ metric: 'freshness_ms', condition: `${rate.toFixed(1)} mem/s steady`, value: fresh.latency.count, unit: 'found', latency: fresh.latency });
        if (fresh.neverFound) print(`  ${fresh.neverFound} memories were not searchable within 30 s`);
      }
    }
    figures['search_ms'] = searchFigures;

    // Last: the flood of accepted requests leaves a backlog the pipeline works through for minutes.
    const levels = [];
    for (const concurrency of scale.edgeLevels) {
      print(`\n[edge_accept_rps] text ingests for ${scale.edgeSeconds} s at ${concurrency} in flight`);
      const level = await edgeAccept(ctx, concurrency, scale.edgeSeconds);
      print(`  ${level.accepted} accepted (${level.acceptedPerS.toFixed(0)}/s), ${level.refused} refused`);
      levels.push(level);
      rows.push({ metric: 'edge_accept_rps', condition: `${concurrency} in flight`, value: level.acceptedPerS, unit: 'req/s', latency: level.latency });
    }
    const best = levels.reduce((a, b) => (b.acceptedPerS > a.acceptedPerS ? b : a));
    figures['edge_accept_rps'] = { best: best.acceptedPerS, bestConcurrency: best.concurrency, levels };
    rows.push({ metric: 'edge_accept_rps', condition: `best (${best.concurrency} in flight)`, value: best.acceptedPerS, unit: 'req/s', latency: best.latency });

    const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', memoryGb: totalmem() / 2 ** 30, node: process.version, platform: process.platform };
    print(`\nperformance, embedded mode, ${options.scale} scale; ${machine.cpus} x ${machine.cpuModel}, Node ${machine.node}; client in the bench process\n`);
    print(formatPerformanceTable(rows));
    if (options.json) {
      const file = resolve(options.json);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify({ mode: options.mode, scale: options.scale, finishedAt: new Date().toISOString(), machine, scaleSettings: scale, figures, rows }, null, 2));
      print(`\nfigures written to ${file}`);
    }
    return 0;
  } finally {
    if (target) await stopOrKill(target);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * A graceful stop lets the service work through its backlog first, minutes after the edge scenario's flood; the
 * data is thrown away anyway, so after a short grace period the process is killed.
 */
async function stopOrKill(target: Target, graceMs = 10_000): Promise<void> {
  const pid = target.pid();
  const stopped = target.stop().catch(() => undefined);
  const timer = setTimeout(() => {
    if (pid !== null) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }, graceMs);
  await stopped;
  clearTimeout(timer);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ServiceStartError) process.stderr.write(`${error.message}\n`);
    else process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
