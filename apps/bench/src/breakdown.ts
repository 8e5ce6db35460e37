import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { TOPICS } from '@memory/contracts';
import { formatBreakdownTable, formatPerformanceTable, ingestSample, searchSample, sentenceGenerator, summariseBreakdown, type BreakdownSample, type PerformanceRow, type StepSummary } from '@memory/evaluation';
import { parseServerTiming, type StepTiming } from '@memory/platform';
import { localEngines } from '@memory/testing';
import { BenchApi } from './api.js';
import { BREAKDOWN_USAGE, parseBreakdownArgs } from './breakdown-args.js';
import { startDistributedService } from './distributed-service.js';
import { ApiConnection } from './http-call.js';
import { runLoad } from './load-process.js';
import { ingestMany, waitForJobs } from './perf-pipeline.js';
import type { Print } from './progress.js';
import { recordMoments } from './record-moments.js';
import { commandOptions, runMain } from './run-main.js';
import type { Target } from './service.js';

/**
 * `npm run bench:breakdown`: where the time of one search and of one ingested memory goes in the distributed mode.
 *
 * A search's steps come from the service itself: the search app times each store and model call, each
 * Elasticsearch request (counted), fusion and reranking, and says so in a Server-Timing header; the edge adds its
 * relay. An ingested memory's come from the accept's Server-Timing (read, encode, produce, job record) and, past the
 * edge, from the timestamps of the records the memory's request id marks in each topic: the time between one
 * stage's output and the next one's is that stage's consume-to-produce. Visibility is the first direct lookup that
 * finds the memory. Everything is sequential, on an otherwise idle service, so each figure is one request's own.
 */
const print: Print = (line) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () => loadavg().map((l) => l.toFixed(2)).join(', ');

/** The topics one text memory passes, in order, and the stage whose output each is. */
const CHAIN = [
  { topic: TOPICS.ingestRequested, step: 'edge' },
  { topic: TOPICS.resolved, step: 'stage.temporal-resolver' },
  { topic: TOPICS.enriched, step: 'stage.enricher' },
  { topic: TOPICS.committed, step: 'stage.dual-writer' },
  { topic: TOPICS.centroidUpdated, step: 'stage.centroid-calibrator' },
] as const;

async function main(): Promise<number> {
  const options = commandOptions(() => parseBreakdownArgs(process.argv.slice(2)), BREAKDOWN_USAGE);
  if (typeof options === 'number') return options;
  let target: Target | null = null;
  try {
    target = await startDistributedService(print);
    const connection = new ApiConnection(target.url, target.apiKey);
    const runId = Date.now().toString(36);

    print(`\n[ingest] ${options.ingests} memories, one at a time (load average ${load()})`);
    const ingestUser = `breakdown-ingest-${runId}`;
    const ingest = await followBreakdown(connection, target.namespace!, ingestUser, options.ingests, 'ingest', (i, code, requestId) =>
      connection.call('POST', '/v1/memory', ingestUser, { source: { type: 'text', content: `Note ${i}: the parcel code is ${code}, kept for the breakdown.` } }, { 'x-request-id': requestId }),
    );
    print(`  load average ${load()}`);
    print(`\n[update] the same ${options.ingests} memories corrected, one at a time (load average ${load()})`);
    const update = await followBreakdown(connection, target.namespace!, ingestUser, options.ingests, 'update', (i, code, requestId) =>
      connection.call('PATCH', `/v1/memories/mem_${ingest.jobIds[i]!}_0`, ingestUser, { content: `Note ${i}, corrected: the parcel code is ${code}.` }, { 'x-request-id': requestId }),
    );
    print(`  load average ${load()}`);

    print(`\n[search] loading ${options.memories} memories for one end user`);
    const api = new BenchApi(target.url, target.apiKey);
    const texts = sentenceGenerator(7);
    const searchUser = `breakdown-search-${runId}`;
    const { failed } = await waitForJobs({ api, texts, print }, await ingestMany({ api, texts, print }, searchUser, options.memories, 16, 'accepted'), 'processed');
    if (failed) print(`  ${failed} jobs failed`);
    print(`[search] ${options.searches} searches, one at a time (load average ${load()})`);
    const search = await searchBreakdown(connection, searchUser, texts.query, options.searches);
    print(`  load average ${load()}`);
    // The same search rows as \`npm run bench\` (its load generator, in a process of its own), on the same memories.
    const rows: PerformanceRow[] = [];
    for (const clients of options.clients) {
      print(`\n[search_ms] ${options.memories} memories, ${options.loadQueries} queries, ${clients} client(s) (load average ${load()})`);
      const latency = await runLoad({ kind: 'search', url: target.url, apiKey: target.apiKey, seed: 11 + clients, endUserIds: [searchUser], queries: options.loadQueries, clients }, print);
      rows.push({ metric: 'search_ms', condition: `${options.memories / 1000}k memories, ${clients} client${clients > 1 ? 's' : ''}`, value: latency.count, unit: 'queries', latency });
      print(`  load average ${load()}`);
    }

    print(`\nwhere the time goes, distributed mode; ${cpus().length} x ${cpus()[0]?.model ?? 'unknown'}, Node ${process.version}; medians over the samples\n`);
    print(formatBreakdownTable(`one search (${options.memories} memories, automatic routing, limit 10)`, search.steps, search.samples));
    print('');
    if (rows.length > 0) print(`\n${formatPerformanceTable(rows)}\n`);
    print(formatBreakdownTable('one ingested memory (text; stage.* = from the previous topic\'s record to this stage\'s output)', ingest.steps, ingest.samples));
    print('');
    print(formatBreakdownTable('one corrected memory (PATCH of its content; the same steps)', update.steps, update.samples));
    if (options.json) {
      const file = resolve(options.json);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify({ finishedAt: new Date().toISOString(), options, loadAverage: loadavg(), search, ingest, update, rows }, null, 2));
      print(`\nfigures written to ${file}`);
    }
    return 0;
  } finally {
    await target?.stop().catch(() => undefined);
  }
}

/** Searches one at a time through the edge, after a few untimed ones (JIT, connections, caches). */
async function searchBreakdown(connection: ApiConnection, endUserId: string, query: () => string, count: number): Promise<{ samples: number; steps: StepSummary[] }> {
  const samples: BreakdownSample[] = [];
  for (let i = 0; i < count + 10; i++) {
    const started = performance.now();
    const answer = await connection.call('POST', '/v1/search', endUserId, { query: query(), options: { limit: 10 } });
    const clientMs = performance.now() - started;
    if (answer.status !== 200) throw new Error(`POST /v1/search answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    if (i >= 10) samples.push(searchSample(clientMs, parseServerTiming(answer.serverTiming)));
  }
  return { samples: samples.length, steps: summariseBreakdown(samples) };
}

/** Sends the n-th followed memory with its code in the content and the given request id; answers the HTTP reply. */
type Send = (n: number, code: string, requestId: string) => ReturnType<ApiConnection['call']>;

/**
 * Memories sent one at a time (ingested ones, or corrections of memories ingested before), each with a request id
 * of its own and a code no other memory holds; each is followed until a direct lookup of its code finds it and its
 * job is Completed, then the records its request id marks are read back from the topics. Answers the steps and the
 * job ids; the first two (which warm the stages up: first model call, first writes) are not measured.
 */
async function followBreakdown(connection: ApiConnection, namespace: string, endUserId: string, count: number, label: string, send: Send): Promise<{ samples: number; steps: StepSummary[]; jobIds: string[] }> {
  const followed: Array<{ requestId: string; sentAt: number; acceptedAt: number; visibleAt: number; completedAt: number; accept: StepTiming[] }> = [];
  const jobIds: string[] = [];
  for (let i = 0; i < count + 2; i++) {
    const requestId = `${endUserId}-${label}-${i}`;
    const code = `BRK${Date.now().toString(36).toUpperCase()}X${i}`;
    const sentAt = Date.now();
    const accepted = await send(i, code, requestId);
    const acceptedAt = Date.now();
    if (accepted.status !== 202) throw new Error(`${label} answered ${accepted.status}: ${accepted.text.slice(0, 300)}`);
    const jobId = (JSON.parse(accepted.text) as { jobId: string }).jobId;
    jobIds.push(jobId);
    let visibleAt = 0;
    while (visibleAt === 0) {
      const found = await connection.call('POST', '/v1/search', endUserId, { query: code, strategy: 'direct_lookup', options: { limit: 1 } });
      if (found.status === 200 && (JSON.parse(found.text) as { data: unknown[] }).data.length > 0) visibleAt = Date.now();
      else await sleep(10);
      if (Date.now() - sentAt > 60_000) throw new Error(`memory ${code} (job ${jobId}) not visible after 60 s`);
    }
    let completedAt = 0;
    while (completedAt === 0) {
      const job = JSON.parse((await connection.call('GET', `/v1/jobs/${jobId}`, endUserId)).text) as { status: string; updatedAt: number };
      if (job.status === 'Completed') completedAt = job.updatedAt;
      else if (job.status === 'Failed') throw new Error(`job ${jobId} failed: ${JSON.stringify(job)}`);
      else await sleep(20);
    }
    if (i >= 2) followed.push({ requestId, sentAt, acceptedAt, visibleAt, completedAt, accept: parseServerTiming(accepted.serverTiming) });
  }
  const brokers = localEngines().kafka.endpoint.split(',');
  const moments = await recordMoments(
    brokers,
    namespace,
    CHAIN.map((c) => c.topic),
    followed.map((f) => f.requestId),
  );
  const samples = followed.map((f): BreakdownSample => {
    const byTopic = moments.get(f.requestId)!;
    const produced = byTopic.get(TOPICS.ingestRequested) ?? null;
    const chain = ingestSample(CHAIN.map(({ topic, step }) => ({ step, at: byTopic.get(topic) ?? null })));
    return [
      ...f.accept.map((s) => ({ ...s, step: `edge.${s.step}` })),
      { step: 'edge.client', count: 1, ms: f.acceptedAt - f.sentAt },
      ...chain,
      ...(produced === null ? [] : [{ step: 'visible (produce to found by search)', count: 1, ms: f.visibleAt - produced }]),
      { step: 'completed (sent to job Completed)', count: 1, ms: f.completedAt - f.sentAt },
      { step: 'visible (sent to found by search)', count: 1, ms: f.visibleAt - f.sentAt },
    ];
  });
  return { samples: samples.length, steps: summariseBreakdown(samples), jobIds };
}

runMain(main);
