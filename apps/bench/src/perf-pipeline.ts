import { openEmbedder, readServiceConfig } from '@memory/composition';
import { summarizeLatencies, type LatencySummary, type SentenceGenerator } from '@memory/evaluation';
import { createLogger } from '@memory/platform';
import type { BenchApi } from './api.js';
import type { PerfClient } from './perf-http.js';
import { mapWithConcurrency } from './pool.js';
import { progress, type Print } from './progress.js';

/** What every scenario works with: the service's two clients, the text source and where to say what happens. */
export interface PerfContext {
  client: PerfClient;
  /** For bulk loading, where overload answers are retried: loading is not what is measured there. */
  api: BenchApi;
  texts: SentenceGenerator;
  print: Print;
  runId: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface EdgeLevel {
  concurrency: number;
  seconds: number;
  accepted: number;
  refused: number;
  acceptedPerS: number;
  latency: LatencySummary;
}

/** Text ingests sent as fast as `concurrency` clients can for `seconds`: what the edge accepts (202) per second. */
export async function edgeAccept(ctx: PerfContext, concurrency: number, seconds: number): Promise<EdgeLevel> {
  const latencies: number[] = [];
  let refused = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  // Pre-generated so the client spends its time on requests; a few users, as several applications would send.
  const texts = Array.from({ length: 4096 }, () => ctx.texts.memory());
  let sent = 0;
  const worker = async (w: number) => {
    while (performance.now() < deadline) {
      const res = await ctx.client.ingest(`edge-${ctx.runId}-${w % 8}`, texts[sent++ % texts.length]!);
      if (res.status === 202) latencies.push(res.ms);
      else if (res.status === 429 || res.status === 503) refused++;
      else throw new Error(`POST /v1/memory answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
  const elapsed = (performance.now() - started) / 1000;
  return { concurrency, seconds: elapsed, accepted: latencies.length, refused, acceptedPerS: latencies.length / elapsed, latency: summarizeLatencies(latencies) };
}

/**
 * The bare model's throughput, opened as the service opens it (same data folder, so the same pinned model and
 * thread setting) and called one text per call as the pipeline calls it: the compute limit on this machine.
 */
export async function embedRaw(dataDir: string, texts: readonly string[], print: Print): Promise<{ model: string; texts: number; perS: number }> {
  const config = readServiceConfig({ ...process.env, MEMORY_DATA_DIR: dataDir }, 'embedded');
  const embedder = await openEmbedder(config, createLogger({ component: 'bench' }, 'warn'));
  try {
    // The first calls pay for graph optimisation and allocations the pipeline pays once at start.
    for (const text of texts.slice(0, 5)) await embedder.embed([text], 'passage');
    const shown = progress('embedded', texts.length, print, ' texts');
    for (let i = 0; i < texts.length; i++) {
      await embedder.embed([texts[i]!], 'passage');
      shown.update(i + 1);
    }
    const seconds = shown.finish(texts.length);
    return { model: `${embedder.model.name} (${embedder.model.dimensions}-d)`, texts: texts.length, perS: texts.length / seconds };
  } finally {
    await embedder.close();
  }
}

/** Sends `count` memories for one user as fast as they are accepted; returns their job ids in order. */
export async function ingestMany(ctx: PerfContext, endUserId: string, count: number, concurrency: number, label: string): Promise<string[]> {
  const texts = Array.from({ length: count }, () => ctx.texts.memory());
  const shown = progress(label, count, ctx.print, ' memories');
  let accepted = 0;
  const jobIds = await mapWithConcurrency(texts, concurrency, async (text) => {
    const jobId = await ctx.api.ingestText(endUserId, text, new Date().toISOString());
    shown.update(++accepted);
    return jobId;
  });
  shown.finish(accepted);
  return jobIds;
}

const GIVE_UP_IDLE_MS = 120_000;
const POLL_MS = 250;

/**
 * Waits until every job is Completed or Failed, asking as little as possible: the polling is load on the service
 * being measured (a first version asking ~600 times a second slowed the pipeline several-fold). Each round asks
 * about the newest pending job, and a small sample of the oldest for progress; when the newest is done, the rest
 * are swept once, since jobs of one user are processed in order but not all of them strictly so.
 */
export async function waitForJobs(ctx: PerfContext, jobIds: readonly string[], label: string): Promise<{ failed: number; doneAt: number }> {
  let pending = [...jobIds];
  let failed = 0;
  // When the round that found the last jobs done began: the sweep's own requests are not pipeline time.
  let doneAt = performance.now();
  let lastChange = performance.now();
  const shown = progress(label, jobIds.length, ctx.print, ' jobs');
  const done = (status: string) => status === 'Completed' || status === 'Failed';
  while (pending.length > 0) {
    doneAt = performance.now();
    const newest = pending[pending.length - 1]!;
    const asked = (await ctx.api.job(newest)).status;
    const ask = done(asked) ? pending : pending.slice(0, 4);
    const states = await mapWithConcurrency(ask, 4, (jobId) => ctx.api.job(jobId));
    const finished = new Set(ask.filter((_, i) => done(states[i]!.status)));
    failed += states.filter((s) => s.status === 'Failed').length;
    pending = pending.filter((id) => !finished.has(id));
    shown.update(jobIds.length - pending.length);
    if (finished.size > 0) lastChange = performance.now();
    else if (performance.now() - lastChange > GIVE_UP_IDLE_MS) throw new Error(`no job finished in ${GIVE_UP_IDLE_MS / 1000} s (${pending.length} pending): the pipeline is stuck`);
    if (pending.length > 0) await sleep(POLL_MS);
  }
  shown.finish(jobIds.length);
  return { failed, doneAt };
}

/** `count` memories from the first request to the last job Completed: what the whole pipeline sustains. */
export async function pipelineThroughput(ctx: PerfContext, endUserId: string, count: number): Promise<{ memories: number; seconds: number; perS: number; failed: number }> {
  const started = performance.now();
  const jobIds = await ingestMany(ctx, endUserId, count, 16, 'accepted');
  const { failed, doneAt } = await waitForJobs(ctx, jobIds, 'processed');
  const seconds = (doneAt - started) / 1000;
  return { memories: count, seconds, perS: count / seconds, failed };
}

export interface Freshness {
  ratePerS: number;
  sent: number;
  neverFound: number;
  latency: LatencySummary;
}

/**
 * At a steady rate, each memory carries a unique code; from its 202, a direct_lookup search for the code is repeated
 * every `pollMs` until the memory comes back. direct_lookup reads the stores the pipeline writes last, so found
 * there means searchable.
 */
export async function freshness(ctx: PerfContext, ratePerS: number, seconds: number, pollMs = 20, giveUpMs = 30_000): Promise<Freshness> {
  const endUserId = `fresh-${ctx.runId}`;
  const found: number[] = [];
  let neverFound = 0;
  const probes: Promise<void>[] = [];
  const probe = async (n: number) => {
    const code = `FRESH-${n}-${ctx.runId}`;
    const res = await ctx.client.ingest(endUserId, `${ctx.texts.memory()} Reference ${code}.`);
    if (!res.jobId) throw new Error(`POST /v1/memory answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    const accepted = performance.now();
    while (performance.now() - accepted < giveUpMs) {
      const hit = await ctx.client.search(endUserId, code, { strategy: 'direct_lookup', limit: 5 });
      if (hit.status !== 200) throw new Error(`POST /v1/search answered ${hit.status}: ${JSON.stringify(hit.body).slice(0, 300)}`);
      if (hit.jobIds.includes(res.jobId)) {
        found.push(performance.now() - accepted);
        return;
      }
      await sleep(pollMs);
    }
    neverFound++;
  };
  const total = Math.max(1, Math.round(ratePerS * seconds));
  const started = performance.now();
  const shown = progress('sent', total, ctx.print, ' memories');
  for (let n = 0; n < total; n++) {
    // Scheduled against the start, not the previous send, so a slow send does not lower the rate.
    const due = started + (n * 1000) / ratePerS;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    probes.push(probe(n));
    shown.update(n + 1);
  }
  shown.finish(total);
  await Promise.all(probes);
  return { ratePerS, sent: total, neverFound, latency: summarizeLatencies(found) };
}

/** Varied generated queries for one user with automatic routing, `clients` at a time; the server's times include embedding the query. */
export async function searchLatency(ctx: PerfContext, endUserId: string, queries: number, clients: number): Promise<LatencySummary> {
  const texts = Array.from({ length: queries }, () => ctx.texts.query());
  // A few unmeasured searches first: the first ones after a load pay for caches the steady state has warm.
  await mapWithConcurrency(texts.slice(0, 5), 1, (q) => ctx.client.search(endUserId, q));
  const ms = await mapWithConcurrency(texts, clients, async (q) => {
    const res = await ctx.client.search(endUserId, q, { limit: 10 });
    if (res.status !== 200) throw new Error(`POST /v1/search answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    return res.ms;
  });
  return summarizeLatencies(ms);
}
