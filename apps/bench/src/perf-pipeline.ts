import { openEmbedder, readServiceConfig } from '@memory/composition';
import type { SentenceGenerator } from '@memory/evaluation';
import { createLogger } from '@memory/platform';
import type { BenchApi } from './api.js';
import { mapWithConcurrency } from '@memory/platform';
import { progress, type Print } from './progress.js';

/**
 * What the bench itself does, in its own process: the bare model's throughput, and loading memories through the
 * API, where overload answers are retried (loading is not what is measured there) and the pipeline's pace is.
 */
export interface PerfContext {
  api: BenchApi;
  texts: SentenceGenerator;
  print: Print;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
 * about the newest pending job; until it is done, a binary search (jobs of one user are processed in order) finds
 * how far the pipeline has got, for the progress line. When the newest is done, the rest are swept once, since not
 * all jobs are strictly in order (several users, retries).
 */
export async function waitForJobs(ctx: PerfContext, jobIds: readonly string[], label: string): Promise<{ failed: number; doneAt: number }> {
  let pending = [...jobIds];
  let failed = 0;
  // When the round that found the last jobs done began: the sweep's own requests are not pipeline time.
  let doneAt = performance.now();
  let lastChange = performance.now();
  let reached = 0;
  const shown = progress(label, jobIds.length, ctx.print, ' jobs');
  const done = async (jobId: string) => {
    const { status } = await ctx.api.job(jobId);
    return status === 'Completed' || status === 'Failed';
  };
  while (pending.length > 0) {
    doneAt = performance.now();
    if (await done(pending[pending.length - 1]!)) {
      const states = await mapWithConcurrency(pending, 4, (jobId) => ctx.api.job(jobId));
      failed += states.filter((s) => s.status === 'Failed').length;
      const before = pending.length;
      pending = pending.filter((_, i) => states[i]!.status !== 'Completed' && states[i]!.status !== 'Failed');
      if (pending.length < before) lastChange = performance.now();
      reached = 0;
      shown.update(jobIds.length - pending.length);
    } else {
      let low = 0;
      let high = pending.length - 1;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (await done(pending[middle]!)) low = middle + 1;
        else high = middle;
      }
      if (low > reached) lastChange = performance.now();
      reached = Math.max(reached, low);
      shown.update(jobIds.length - pending.length + low);
    }
    if (pending.length > 0 && performance.now() - lastChange > GIVE_UP_IDLE_MS) throw new Error(`no job finished in ${GIVE_UP_IDLE_MS / 1000} s (${pending.length} pending): the pipeline is stuck`);
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
