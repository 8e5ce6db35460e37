import { call, sleep, type DrillApi } from './client.js';
import { countOutcome, statusCounts, type Counts, type JobView, type Sent, type StoredMemory } from './outcome.js';
import { ingest, kindOf, memoryText, sendAtRate, sentFrom, type DrillFiles } from './traffic.js';
import { judgeOutage, type Criterion, type OutageSearch } from './verdict.js';
import { awaitJobs, listMemories } from './verify.js';

export const DRILL_ENGINES = ['kafka', 'registry', 'elasticsearch', 'minio'] as const;
export type DrillEngine = (typeof DRILL_ENGINES)[number];

/** Stops and starts an engine the way the project does (deploy/engines/cli.mjs down/up). */
export interface EngineControl {
  stop(engine: DrillEngine): Promise<void>;
  start(engine: DrillEngine): Promise<void>;
}

export interface OutageOptions {
  api: DrillApi;
  engine: DrillEngine;
  seconds: number;
  rate: number;
  runId: string;
  control: EngineControl;
  /** Images and PDFs, sent in the MinIO drill only. */
  files: DrillFiles | null;
  print: (line: string) => void;
  /** Traffic before the stop and after the restart. */
  marginS?: number;
}

export interface PhaseResult {
  name: string;
  counts: Counts;
  drainS: number | null;
  criteria: Criterion[];
  notes: string[];
}

/**
 * One outage: traffic at the rate, the engine stopped for `seconds` and started again, traffic a little longer,
 * then the wait for every accepted job and the count of what the store holds for the drill's end user.
 */
export async function runOutage(options: OutageOptions): Promise<PhaseResult> {
  const { api, engine, print } = options;
  const margin = (options.marginS ?? 3) * 1000;
  const endUserId = `drill-${options.runId}-${engine}`;
  const withFiles = engine === 'minio';
  const sent: Sent[] = [];
  let fault = false;
  const sender = sendAtRate(options.rate, async (index) => {
    const kind = kindOf(index, withFiles);
    const content = memoryText(options.runId, engine, index);
    const duringFault = fault;
    const reply = await ingest(api, endUserId, kind, content, index, options.files, `${endUserId}-${index}`);
    sent.push(sentFrom(index, kind, content, reply, duringFault || fault));
  });

  await sleep(margin);
  fault = true;
  const stopping = performance.now();
  await options.control.stop(engine);
  print(`  ${engine} stopped (${((performance.now() - stopping) / 1000).toFixed(1)} s to stop); down for ${options.seconds} s`);
  const searches: OutageSearch[] = [];
  const prober = engine === 'elasticsearch' ? probeSearches(api, () => endUserId, searches) : null;
  await sleep(options.seconds * 1000);
  await prober?.stop();
  const starting = performance.now();
  await options.control.start(engine);
  const restartedAt = Date.now();
  fault = false;
  print(`  ${engine} started again (${((performance.now() - starting) / 1000).toFixed(1)} s until ready); ${sender.count()} requests so far`);
  await sleep(margin);
  await sender.stop();

  // A careful client (the SDK) sends what was refused again, with its key: one the service took before its answer
  // was lost must come back as that same job, not a second memory.
  const final = [...sent];
  const resent: Sent[] = [];
  for (const [at, request] of sent.entries()) {
    if (request.status !== null && request.status < 500) continue;
    const content = memoryText(options.runId, engine, request.index);
    const reply = await ingest(api, endUserId, request.kind, content, request.index, options.files, `${endUserId}-${request.index}`);
    final[at] = sentFrom(request.index, request.kind, content, reply, request.duringFault);
    resent.push(final[at]!);
  }
  const resentWords = Object.entries(statusCounts(resent)).map(([status, n]) => `${status}: ${n}`).join(', ');
  if (resent.length > 0) print(`  ${resent.length} refused requests sent again with their Idempotency-Keys: ${resentWords}`);

  const accepted = final.filter((request) => request.status === 202 && request.jobId).map((request) => request.jobId!);
  print(`  ${sent.length} sent, ${accepted.length} accepted (${sent.filter((request) => request.status === 202).length} at once); waiting for every accepted job`);
  const { jobs, drainedAt } = await awaitJobs(api, accepted, restartedAt + 180_000);
  // Statuses as first answered, the rest of the count after the resend.
  const counts = { ...(await countWhenSettled(api, endUserId, final, jobs)), statuses: statusCounts(sent) };
  const drainS = drainedAt === null ? null : Math.max(0, (drainedAt - restartedAt) / 1000);
  const notes = [...(resent.length > 0 ? [`${resent.length} refused sent again with their keys (${resentWords})`] : []), ...failedJobs(jobs)];
  return { name: engine, counts, drainS, criteria: judgeOutage(sent, counts, drainS, prober ? searches : null), notes };
}

/**
 * Counts once the store shows what the job records say is done; a memory written a moment ago can take a refresh
 * interval to be listed, so a count that finds some missing is taken again a few times before it stands. `endUsers`:
 * the end user, or all end users, the memories were sent for.
 */
export async function countWhenSettled(api: DrillApi, endUsers: string | readonly string[], sent: readonly Sent[], jobs: ReadonlyMap<string, JobView | null>): Promise<Counts> {
  let stored: StoredMemory[] = [];
  let counts!: Counts;
  for (let attempt = 0; attempt < 4; attempt++) {
    if (attempt > 0) await sleep(2_000);
    stored = [];
    for (const endUserId of typeof endUsers === 'string' ? [endUsers] : endUsers) stored.push(...(await listMemories(api, endUserId)));
    counts = countOutcome(sent, jobs, stored);
    if (counts.missing === 0) break;
  }
  return counts;
}

/** The error codes of jobs that ended Failed, counted: what a reader of a failed drill wants first. */
export function failedJobs(jobs: ReadonlyMap<string, JobView | null>): string[] {
  const failed = [...jobs.values()].filter((job) => job && job.status !== 'Completed').length;
  const unread = [...jobs.values()].filter((job) => job === null).length;
  return [...(failed ? [`${failed} jobs not Completed`] : []), ...(unread ? [`${unread} job records unreadable`] : [])];
}

/**
 * Searches at `rate` a second (by default one) for the end user `endUserOf(index)` names, each answer recorded with
 * when it was sent: during an Elasticsearch outage each must be refused (503 with a code) quickly, not hang; while
 * a process joins or leaves, each must be answered.
 */
export function probeSearches(api: DrillApi, endUserOf: (index: number) => string, into: OutageSearch[], rate = 1): { stop(): Promise<void> } {
  const probes = sendAtRate(rate, async (index) => {
    const at = Date.now();
    const reply = await call(api, 'POST', '/v1/search', { endUserId: endUserOf(index), json: { query: 'drill note near the harbour' }, timeoutMs: 30_000 });
    into.push({ at, status: reply.status, code: reply.code, ms: reply.ms });
  });
  return { stop: () => probes.stop() };
}
