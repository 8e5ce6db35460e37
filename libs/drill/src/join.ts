import { percentile } from '@memory/evaluation';
import { seededRandom } from '@memory/platform';
import { sleep, type DrillApi } from './client.js';
import type { Counts, JobView, Sent } from './outcome.js';
import { countWhenSettled, failedJobs, probeSearches, type PhaseResult } from './outage.js';
import { ingestCarefully, memoryText, retryNote, sendAtRate } from './traffic.js';
import { judgeCrash, type Criterion, type OutageSearch } from './verdict.js';
import { awaitJobs } from './verify.js';

/** The processes a join drill adds to a running deployment: a second enricher, a second search app. */
export const JOIN_TARGETS = ['enricher', 'search'] as const;
export type JoinTarget = (typeof JOIN_TARGETS)[number];

/** Starts one more process of a kind beside the deployment's, reads what it did, and stops it again. */
export interface JoinControl {
  /** Starts the extra process with the deployment's variables; resolves once it is ready. */
  join(target: JoinTarget): Promise<{ pid: number }>;
  /** What the extra process did so far (its /metrics): records the enricher processed, searches the search app answered. */
  served(target: JoinTarget): Promise<number>;
  /** SIGTERM; resolves once it has exited (its consumers have left their group). */
  leave(target: JoinTarget): Promise<void>;
}

export interface JoinOptions {
  api: DrillApi;
  target: JoinTarget;
  memories: number;
  rate: number;
  /** How long the extra process stays once it is ready. */
  holdS: number;
  runId: string;
  control: JoinControl;
  print: (line: string) => void;
  /**
   * End users the memories are shared over: a user's records stay in one partition, so one user would give a
   * second consumer nothing to take.
   */
  endUsers?: number;
  /** Searches a second through the edge, for the whole drill. */
  searchRate?: number;
}

/**
 * The figures of one part of a join drill: before the join, while both processes ran, after the leave while
 * memories still arrived, and the drain once the sending ended.
 */
export interface JoinWindow {
  name: 'before' | 'joined' | 'after' | 'drain';
  seconds: number;
  /** Jobs that completed in the window, and per second. */
  completed: number;
  completedPerS: number;
  /** Accepted but not completed at the window's end: when it grows, the pipeline, not the sender, set the rate. */
  backlogAtEnd: number;
  searches: number;
  searchP50Ms: number | null;
  searchP95Ms: number | null;
}

export interface JoinResult extends PhaseResult {
  windows: JoinWindow[];
  /** Records the extra enricher processed, or searches the extra search app answered, before it left. */
  served: number;
}

/** The moments that cut a join drill into windows (epoch ms): first send, extra ready, extra gone, last send, last completion. */
export interface JoinMarks {
  start: number;
  joined: number;
  left: number;
  sendingEnded: number;
  end: number;
}

/** Completions, backlog and search latency in each window, from the job records' times and the searches' send times. */
export function joinWindows(jobs: ReadonlyMap<string, JobView | null>, searches: readonly OutageSearch[], marks: JoinMarks): JoinWindow[] {
  const views = [...jobs.values()].filter((job): job is JobView => job !== null);
  const drainFrom = Math.max(marks.left, marks.sendingEnded);
  const bounds: Array<[JoinWindow['name'], number, number]> = [
    ['before', marks.start, marks.joined],
    ['joined', marks.joined, marks.left],
    ['after', marks.left, drainFrom],
    ['drain', drainFrom, Math.max(drainFrom, marks.end)],
  ];
  return bounds.map(([name, from, to]) => {
    const inWindow = (at: number) => at >= from && (at < to || (name === 'drain' && at === to));
    const completed = views.filter((job) => job.status === 'Completed' && inWindow(job.updatedAt)).length;
    const accepted = views.filter((job) => job.acceptedAt <= to).length;
    const done = views.filter((job) => job.status === 'Completed' && job.updatedAt <= to).length;
    const ms = searches.filter((search) => inWindow(search.at) && search.status === 200).map((search) => search.ms);
    const seconds = (to - from) / 1000;
    return {
      name,
      seconds,
      completed,
      completedPerS: seconds > 0 ? completed / seconds : 0,
      backlogAtEnd: accepted - done,
      searches: searches.filter((search) => inWindow(search.at)).length,
      searchP50Ms: percentile(ms, 50),
      searchP95Ms: percentile(ms, 95),
    };
  });
}

/**
 * The verdict of a join drill (issue 20, part 3): what a crash drill asks (every memory accepted, every job
 * Completed, 0 lost, 0 duplicated), the extra process took part (the rebalance gave it work), and every search
 * through the edge was answered while it joined and left.
 */
export function judgeJoin(counts: Counts, memories: number, unaccepted: number, target: JoinTarget, served: number, searches: readonly OutageSearch[]): Criterion[] {
  const answered = searches.filter((search) => search.status === 200).length;
  return [
    ...judgeCrash(counts, memories, unaccepted),
    {
      name: target === 'enricher' ? 'the second enricher processed records' : 'the second search app answered searches',
      pass: served > 0,
      detail: `${served} ${target === 'enricher' ? 'records' : 'searches'}`,
    },
    { name: 'every search answered 200', pass: searches.length > 0 && answered === searches.length, detail: `${answered}/${searches.length}` },
  ];
}

/** How long the drill waits, past the hold, for the extra process to be given work before it leaves anyway. */
const SERVE_WAIT_MS = 60_000;

/**
 * One join: memories at the rate over several end users (as a careful client sends them) and a search stream
 * through the edge; a quarter into the sending, one more enricher or search app starts; once it is ready it stays
 * `holdS` (and until it has done something, within a minute more), then stops; then every job is awaited and the
 * store counted. The figures per window show what the second process changed: the windows while memories arrive
 * compare like with like (the end of the sending frees the edge's share of the machine, which the drain then has).
 */
export async function runJoin(options: JoinOptions): Promise<JoinResult> {
  const { api, print, target } = options;
  const users = Array.from({ length: options.endUsers ?? 16 }, (_, i) => `drill-${options.runId}-join-${i}`);
  const userOf = (index: number) => users[index % users.length]!;
  const random = seededRandom(options.memories);
  const sent: Sent[] = [];
  const searches: OutageSearch[] = [];
  const retried: string[] = [];
  const start = Date.now();
  const sender = sendAtRate(
    options.rate,
    async (index) => {
      const outcome = await ingestCarefully(api, userOf(index), memoryText(options.runId, `join-${target}`, index), index, `${userOf(index)}-${index}`, random, () => false);
      sent.push(outcome.sent);
      retried.push(...outcome.retried);
    },
    options.memories,
  );
  const prober = probeSearches(api, userOf, searches, options.searchRate ?? 2);

  await sleep((options.memories / options.rate / 4) * 1000);
  print(`  starting a second ${target} (${sender.count()} memories sent so far)`);
  const starting = Date.now();
  const { pid } = await options.control.join(target);
  const joined = Date.now();
  print(`  second ${target} (pid ${pid}) ready after ${((joined - starting) / 1000).toFixed(1)} s; stays ${options.holdS} s`);
  await sleep(options.holdS * 1000);
  let served = await options.control.served(target);
  for (const deadline = Date.now() + SERVE_WAIT_MS; served === 0 && Date.now() < deadline; served = await options.control.served(target)) await sleep(2_000);
  const leaving = Date.now();
  await options.control.leave(target);
  const left = Date.now();
  print(`  second ${target} stopped after ${((left - leaving) / 1000).toFixed(1)} s, having ${target === 'enricher' ? 'processed' : 'answered'} ${served}`);

  await sender.done;
  const sendingEnded = Date.now();
  if (sendingEnded < left) print(`  the sending ended ${((left - sendingEnded) / 1000).toFixed(1)} s before the leave: no window after it with traffic (send more --memories)`);
  await prober.stop();
  const accepted = sent.filter((request) => request.status === 202 && request.jobId).map((request) => request.jobId!);
  print(`  ${sent.length} sent, ${accepted.length} accepted; waiting for every accepted job`);
  // A backlog is the point here (it shows the pipeline's own rate), so the wait allows a pipeline of 1 memory/s.
  const { jobs, drainedAt } = await awaitJobs(api, accepted, sendingEnded + Math.max(300, accepted.length) * 1000);
  const counts = await countWhenSettled(api, users, sent, jobs);
  const lastCompletion = Math.max(left, ...[...jobs.values()].map((job) => (job?.status === 'Completed' ? job.updatedAt : 0)));
  const windows = joinWindows(jobs, searches, { start, joined, left, sendingEnded, end: lastCompletion });
  const unaccepted = sent.filter((request) => request.status !== 202).length;
  return {
    name: `join ${target}`,
    counts,
    drainS: drainedAt === null ? null : Math.max(0, (drainedAt - sendingEnded) / 1000),
    criteria: judgeJoin(counts, options.memories, unaccepted, target, served, searches),
    notes: [...windows.map(formatWindow), ...retryNote(retried), ...failedJobs(jobs)],
    windows,
    served,
  };
}

const ms = (value: number | null) => (value === null ? '-' : String(Math.round(value)));

/** One window as a line of the report. */
export function formatWindow(window: JoinWindow): string {
  return `${window.name.padEnd(6)} ${window.seconds.toFixed(1)} s: ${window.completed} completed (${window.completedPerS.toFixed(1)}/s), backlog at end ${window.backlogAtEnd}; ${window.searches} searches, p50 / p95 ${ms(window.searchP50Ms)} / ${ms(window.searchP95Ms)} ms`;
}
