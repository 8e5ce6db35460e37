import { partitionFor, userKey } from '@memory/contracts';
import type { Caller } from './http-caller.js';

/**
 * One text memory's freshness: from sending it to its job reading Completed (searchable), in ms. The job is read
 * every 20 ms, so the figure is at most that much late.
 */
export async function textFreshnessMs(api: Caller, content: string): Promise<number> {
  const started = performance.now();
  const ack = await api.post('/v1/memory', { source: { type: 'text', content } });
  if (ack.status !== 202) throw new Error(`text ingestion answered ${ack.status}: ${JSON.stringify(ack.body)}`);
  for (;;) {
    const job = await api.get(`/v1/jobs/${ack.body.jobId}`);
    if (job.body?.status === 'Completed') return performance.now() - started;
    if (job.body?.status === 'Failed') throw new Error(`text job ${ack.body.jobId} failed: ${JSON.stringify(job.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Sends one text memory every `everyMs` while `going()` says so, each without waiting for the one before (a stuck
 * pipeline shows as late probes, not as fewer), and returns every probe's freshness in ms, in the order sent.
 */
export async function probeTextFreshness(api: Caller, options: { everyMs: number; going: () => boolean }): Promise<number[]> {
  const probes: Array<Promise<number>> = [];
  for (let i = 0; options.going(); i++) {
    probes.push(textFreshnessMs(api, `Freshness probe ${i}: the courier left parcel ${1000 + i} with the neighbour at number ${i % 40}.`));
    await new Promise((resolve) => setTimeout(resolve, options.everyMs));
  }
  return Promise.all(probes);
}

/**
 * An end user id, `base` with a number, whose records land on another partition than every user in `others`:
 * records are ordered per partition, so a user sharing a partition with a file waits behind it by design (up to
 * the file's time limit); what must not happen is waiting behind a file of another partition.
 */
export function otherPartitionUser(tenantId: string, base: string, others: Array<{ tenantId: string; endUserId: string }>, partitions = 8): string {
  const taken = new Set(others.map((other) => partitionFor(userKey(other.tenantId, other.endUserId), partitions)));
  return firstUser(tenantId, base, partitions, (partition) => !taken.has(partition));
}

/**
 * An end user id, `base` with a number, whose records land on the same partition as `other`'s: the worst case for
 * a user beside a flood, since its records then share every stage's batches with the flood's.
 */
export function samePartitionUser(tenantId: string, base: string, other: { tenantId: string; endUserId: string }, partitions = 8): string {
  const shared = partitionFor(userKey(other.tenantId, other.endUserId), partitions);
  return firstUser(tenantId, base, partitions, (partition) => partition === shared);
}

function firstUser(tenantId: string, base: string, partitions: number, fits: (partition: number) => boolean): string {
  for (let i = 0; ; i++) {
    const candidate = `${base}-${i}`;
    if (fits(partitionFor(userKey(tenantId, candidate), partitions))) return candidate;
  }
}
