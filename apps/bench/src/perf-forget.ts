import { summarizeLatencies, type LatencySummary } from '@memory/evaluation';
import { mapWithConcurrency } from '@memory/platform';
import { waitForJobs, type PerfContext } from './perf-pipeline.js';

const POLL_MS = 5;

async function untilDone(ctx: PerfContext, jobId: string): Promise<void> {
  for (;;) {
    const { status } = await ctx.api.job(jobId);
    if (status === 'Completed') return;
    if (status === 'Failed') throw new Error(`forgetting job ${jobId} failed`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/**
 * forget_visible_ms: one memory at a time, from the DELETE to the moment a direct lookup of its code no longer
 * finds it (polled every 5 ms), and to its job's Completed; the memories are loaded first, each with a code of
 * its own.
 */
export async function forgetLatency(ctx: PerfContext, endUserId: string, count: number): Promise<{ absent: LatencySummary; completed: LatencySummary }> {
  const codes = Array.from({ length: count }, (_, i) => `FGT-${Date.now().toString(36)}-${i}`);
  const jobIds = await mapWithConcurrency(codes, 8, (code) => ctx.api.ingestText(endUserId, `${ctx.texts.memory()} Ticket ${code}.`, new Date().toISOString()));
  await waitForJobs(ctx, jobIds, 'loaded');
  const absent: number[] = [];
  const completed: number[] = [];
  for (let i = 0; i < count; i++) {
    const memoryId = `mem_${jobIds[i]}_0`;
    const started = performance.now();
    const jobId = await ctx.api.forget(endUserId, `/v1/memories/${memoryId}`);
    while ((await ctx.api.lookup(endUserId, codes[i]!)).includes(memoryId)) await new Promise((r) => setTimeout(r, POLL_MS));
    absent.push(performance.now() - started);
    await untilDone(ctx, jobId);
    completed.push(performance.now() - started);
  }
  return { absent: summarizeLatencies(absent), completed: summarizeLatencies(completed) };
}

/**
 * erase_user_s: DELETE /v1/users/{id} of a user holding `held` memories, to the job's Completed. Meanwhile another
 * end user keeps ingesting one memory at a time (4 in flight); how many of theirs were accepted and completed while
 * the erasure ran says whether it held anyone else up.
 */
export async function eraseLatency(ctx: PerfContext, endUserId: string, held: number, otherUser: string) {
  const started = performance.now();
  const jobId = await ctx.api.forget(endUserId, `/v1/users/${endUserId}`);
  let erasing = true;
  const otherJobs: string[] = [];
  const ingesting = Array.from({ length: 4 }, async () => {
    while (erasing) otherJobs.push(await ctx.api.ingestText(otherUser, ctx.texts.memory(), new Date().toISOString()));
  });
  await untilDone(ctx, jobId);
  erasing = false;
  const seconds = (performance.now() - started) / 1000;
  const states = await mapWithConcurrency([...otherJobs], 8, (id) => ctx.api.job(id));
  const otherCompleted = states.filter((s) => s.status === 'Completed').length;
  await Promise.all(ingesting);
  const receipt = (await ctx.api.job(jobId)) as unknown as { receipt?: { memories?: number } };
  await waitForJobs(ctx, otherJobs, 'other user processed');
  return { seconds, held, forgotten: receipt.receipt?.memories ?? null, otherAccepted: otherJobs.length, otherCompleted };
}
