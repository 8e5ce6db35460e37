import { conversationTurns, turnMemoryText, type LocomoFile } from '@memory/evaluation';
import type { BenchApi } from './api.js';
import type { ManifestFile } from './keep.js';
import { mapWithConcurrency } from '@memory/platform';
import { progress, type Print } from './progress.js';

/** One end user per conversation; the run id keeps runs against the same service apart. */
export function endUserIdFor(file: LocomoFile, runId: string): string {
  return `locomo-${file.stem.replace(/[^A-Za-z0-9._-]/g, '_')}-${runId}`.slice(0, 128);
}

/**
 * Sends every turn as one text memory, written at its session's time, and records which job carries which turn.
 * Returns as soon as everything is accepted; the pipeline is still working then.
 */
export async function postTurns(api: BenchApi, files: readonly LocomoFile[], runId: string, concurrency: number, print: Print): Promise<ManifestFile[]> {
  const manifestFiles = files.map((file) => ({
    fileName: file.fileName,
    sha256: file.sha256,
    userId: endUserIdFor(file, runId),
    turns: 0,
    jobs: {} as Record<string, string>,
    failed: {} as Record<string, string>,
  }));
  const items = files.flatMap((file, f) =>
    conversationTurns(file.conversation).map((turn) => ({ entry: manifestFiles[f]!, diaId: turn.diaId, content: turnMemoryText(turn), timestamp: turn.timestamp })),
  );
  print(`ingesting ${items.length} turns of ${files.length} conversations (${concurrency} requests in flight) ...`);
  const posting = progress('accepted', items.length, print, ' turns');
  let accepted = 0;
  await mapWithConcurrency(items, concurrency, async (item) => {
    const jobId = await api.ingestText(item.entry.userId, item.content, item.timestamp);
    item.entry.jobs[jobId] = item.diaId;
    item.entry.turns++;
    posting.update(++accepted);
  });
  posting.finish(accepted);
  return manifestFiles;
}

/** How many jobs to look at per conversation and round: the oldest pending ones, which finish first. */
const FRONT = 12;
const GIVE_UP_AFTER_IDLE_MS = 10 * 60_000;

/**
 * Waits until every job is Completed or Failed, recording failures in the manifest entries. Each round asks about
 * the oldest pending jobs of every conversation, since the pipeline keeps one end user's events in order; that
 * costs a few dozen small requests a second instead of one per job.
 */
export async function waitForJobs(api: BenchApi, manifestFiles: ManifestFile[], print: Print): Promise<{ failed: number }> {
  const pending = manifestFiles.map((entry) => ({ entry, jobIds: Object.keys(entry.jobs) }));
  const total = pending.reduce((n, p) => n + p.jobIds.length, 0);
  const waiting = progress('processed', total, print, ' jobs');
  let done = 0;
  let failed = 0;
  let lastChange = Date.now();
  while (done < total) {
    const front = pending.flatMap((p) => p.jobIds.slice(0, FRONT).map((jobId) => ({ p, jobId })));
    const states = await mapWithConcurrency(front, 8, ({ jobId }) => api.job(jobId));
    const finished = new Set<string>();
    front.forEach(({ p, jobId }, i) => {
      const state = states[i]!;
      if (state.status === 'Completed') finished.add(jobId);
      else if (state.status === 'Failed') {
        finished.add(jobId);
        failed++;
        const why = `${state.error?.code ?? 'unknown'}: ${state.error?.reason ?? 'no reason given'}`;
        p.entry.failed[jobId] = why;
        print(`  job ${jobId} (${p.entry.fileName} ${p.entry.jobs[jobId]}) failed: ${why}`);
      }
    });
    for (const p of pending) p.jobIds = p.jobIds.filter((jobId) => !finished.has(jobId));
    done += finished.size;
    waiting.update(done);
    if (finished.size > 0) lastChange = Date.now();
    else if (Date.now() - lastChange > GIVE_UP_AFTER_IDLE_MS) {
      throw new Error(`no job finished in ${GIVE_UP_AFTER_IDLE_MS / 60_000} minutes (${total - done} still pending): the pipeline is stuck; see the service's log`);
    }
    if (done < total) await new Promise((resolve) => setTimeout(resolve, finished.size > 0 ? 200 : 1_000));
  }
  waiting.finish(done);
  return { failed };
}
