import { mapWithConcurrency } from '@memory/platform';
import { call, field, sleep, textField, type DrillApi } from './client.js';
import type { JobView, StoredMemory } from './outcome.js';

const TERMINAL = new Set(['Completed', 'Failed']);

/**
 * Reads the job record of every accepted job until all are Completed or Failed or the deadline passes; answers
 * the records and when the last one became terminal (epoch ms; null when some never did). An unreadable record
 * (the job store's engine restarting) is asked again in the next round.
 */
export async function awaitJobs(api: DrillApi, jobIds: readonly string[], deadlineMs: number): Promise<{ jobs: Map<string, JobView | null>; drainedAt: number | null }> {
  const jobs = new Map<string, JobView | null>(jobIds.map((id) => [id, null]));
  let pending = [...jobIds];
  let drainedAt = Date.now();
  while (pending.length > 0) {
    await mapWithConcurrency(pending, 8, async (jobId) => {
      const reply = await call(api, 'GET', `/v1/jobs/${encodeURIComponent(jobId)}`, { timeoutMs: 10_000 });
      if (reply.status !== 200) return;
      const status = textField(reply.body, 'status') ?? '';
      const memoryIds = field(reply.body, 'memoryIds');
      const time = (name: string) => Number(field(reply.body, name)) || 0;
      jobs.set(jobId, { status, memoryIds: Array.isArray(memoryIds) ? memoryIds.map(String) : [], acceptedAt: time('acceptedAt'), updatedAt: time('updatedAt') });
      if (TERMINAL.has(status)) drainedAt = Date.now();
    });
    pending = pending.filter((jobId) => !TERMINAL.has(jobs.get(jobId)?.status ?? ''));
    if (pending.length === 0) break;
    if (Date.now() > deadlineMs) return { jobs, drainedAt: null };
    await sleep(500);
  }
  return { jobs, drainedAt };
}

/** Every memory of an end user, page by page (GET /v1/memories); a failed page is asked again for up to a minute. */
export async function listMemories(api: DrillApi, endUserId: string): Promise<StoredMemory[]> {
  const memories: StoredMemory[] = [];
  let cursor: string | null = null;
  const deadline = Date.now() + 60_000;
  do {
    const query: string = `?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const reply = await call(api, 'GET', `/v1/memories${query}`, { endUserId, timeoutMs: 15_000 });
    if (reply.status !== 200) {
      if (Date.now() > deadline) throw new Error(`listing the memories of ${endUserId} answered ${reply.status ?? reply.code}: ${JSON.stringify(reply.body)}`);
      await sleep(1_000);
      continue;
    }
    const page = field(reply.body, 'data');
    for (const item of Array.isArray(page) ? page : []) memories.push({ id: String(field(item, 'id')), content: textField(item, 'payload', 'content') ?? '' });
    cursor = textField(reply.body, 'nextCursor');
  } while (cursor);
  return memories;
}
