import { seededRandom } from '@memory/platform';
import { readMetric, sleep, type DrillApi } from './client.js';
import { countOutcome, type Counts, type Sent } from './outcome.js';
import { countWhenSettled, failedJobs, type PhaseResult } from './outage.js';
import { ingestCarefully, memoryText, retryNote, sendAtRate } from './traffic.js';
import { judgeCrash } from './verdict.js';
import { awaitJobs } from './verify.js';

/** The processes a crash drill can kill, by the names of the issue. */
export const KILL_TARGETS = ['edge', 'enricher', 'temporal', 'dual-writer', 'calibrator', 'job-tracker', 'search'] as const;
export type KillTarget = (typeof KILL_TARGETS)[number];

/** Kills one process of the deployment with SIGKILL and waits until its supervisor has it running again. */
export interface ProcessControl {
  kill(target: KillTarget): Promise<{ pid: number }>;
  awaitRestart(target: KillTarget): Promise<void>;
}

export interface CrashOptions {
  api: DrillApi;
  target: KillTarget | 'random';
  trials: number;
  /** Memories over all trials. */
  memories: number;
  rate: number;
  seed: number;
  runId: string;
  processes: ProcessControl;
  print: (line: string) => void;
}

/** One trial's plan, drawn from the seed: what dies and when. */
export interface TrialPlan {
  trial: number;
  target: KillTarget;
  memories: number;
  killAtS: number;
}

/** The trials of a crash drill: memories shared out, a target (drawn for `random`) and a moment in the sending window each. */
export function planTrials(target: KillTarget | 'random', trials: number, memories: number, rate: number, seed: number): TrialPlan[] {
  const random = seededRandom(seed);
  return Array.from({ length: trials }, (_, trial) => {
    const share = Math.floor(memories / trials) + (trial < memories % trials ? 1 : 0);
    const chosen = target === 'random' ? KILL_TARGETS[Math.floor(random() * KILL_TARGETS.length)]! : target;
    return { trial: trial + 1, target: chosen, memories: share, killAtS: Math.round(random() * (share / rate) * 10) / 10 };
  });
}

/**
 * Each trial sends its memories at the rate as a careful client does (the same Idempotency-Key on every retry of a
 * memory, retrying a missing answer, a 5xx, a 429 or a 409 IDEMPOTENCY.IN_PROGRESS), kills the planned process at the planned moment, waits for
 * its restart and for every job; the counts say whether anything was lost or stored twice.
 */
export async function runCrash(options: CrashOptions): Promise<PhaseResult[]> {
  const { api, print } = options;
  const results: PhaseResult[] = [];
  for (const plan of planTrials(options.target, options.trials, options.memories, options.rate, options.seed)) {
    const endUserId = `drill-${options.runId}-kill-${plan.trial}`;
    print(`trial ${plan.trial}/${options.trials}: ${plan.memories} memories, kill -9 ${plan.target} at ${plan.killAtS.toFixed(1)} s`);
    const takeoversBefore = await takeovers(api);
    const sent: Sent[] = [];
    const retried: string[] = [];
    let down = false;
    const random = seededRandom(options.seed + plan.trial);
    const sender = sendAtRate(
      options.rate,
      async (index) => {
        const outcome = await ingestCarefully(api, endUserId, memoryText(options.runId, `kill${plan.trial}`, index), index, `${endUserId}-${index}`, random, () => down);
        sent.push(outcome.sent);
        retried.push(...outcome.retried);
      },
      plan.memories,
    );
    await sleep(plan.killAtS * 1000);
    down = true;
    const { pid } = await options.processes.kill(plan.target);
    const killedAt = performance.now();
    await options.processes.awaitRestart(plan.target);
    down = false;
    print(`  killed ${plan.target} (pid ${pid}); running again after ${((performance.now() - killedAt) / 1000).toFixed(1)} s`);
    await sender.done;
    const restartedAt = Date.now();
    const accepted = sent.filter((request) => request.status === 202 && request.jobId).map((request) => request.jobId!);
    const { jobs, drainedAt } = await awaitJobs(api, accepted, restartedAt + 180_000);
    const counts: Counts = accepted.length > 0 ? await countWhenSettled(api, endUserId, sent, jobs) : countOutcome(sent, jobs, []);
    const unaccepted = sent.filter((request) => request.status !== 202).length;
    // A killed edge's counter starts again from 0 in the process that replaces it.
    const takenOver = (await takeovers(api)) - (plan.target === 'edge' ? 0 : takeoversBefore);
    results.push({
      name: `${plan.trial}: ${plan.target} @${plan.killAtS.toFixed(1)}s`,
      counts,
      drainS: drainedAt === null ? null : Math.max(0, (drainedAt - restartedAt) / 1000),
      criteria: judgeCrash(counts, plan.memories, unaccepted),
      notes: [...retryNote(retried), ...(takenOver ? [`${takenOver} Idempotency-Key claims taken over from the killed process`] : []), ...failedJobs(jobs)],
    });
  }
  return results;
}

/**
 * Idempotency-Key claims the service's front process took over from a process that died before answering, from
 * its /metrics: a kill that landed between an accept and its answer shows here, so "0 duplicated" is known to have
 * been tried on that window.
 */
function takeovers(api: DrillApi): Promise<number> {
  return readMetric(api.url, 'memory_idempotency_takeovers_total');
}
