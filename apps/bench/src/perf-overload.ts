import type { PerformanceRow } from '@memory/evaluation';
import { otherPartitionUser, samePartitionUser } from '@memory/testing';
import type { Freshness } from './load-commands.js';
import { runLoad } from './load-process.js';
import { liveHeap, nextFullCollection, treeResidentMb, type LiveHeap } from './perf-footprint.js';
import type { Print } from './progress.js';
import type { Target } from './service.js';

/**
 * The admission bounds the overload scenario runs under, from the rate the pipeline sustains on this machine (R) and
 * how long a memory takes to pass it when it is not behind (`passMs`: the run's freshness p50 at R/2). A tenant may
 * send half of R (the other half is left for other tenants). Its jobs in flight are what that rate holds while
 * passing the pipeline (Little's law: R/2 x passMs), plus a tenth of a second of the pipeline's work as a queue: the
 * pipeline takes records in order, so the queue is the wait one tenant's flood adds to another's memories. The first
 * term is what a mode whose memories spend their time in stages rather than in a queue needs (the distributed mode's
 * Kafka hops and refreshes): without it a tenant sending far under its rate was refused by its in-flight bound
 * there. The pipeline as a whole may fall one second behind.
 */
export function overloadLimits(sustainablePerS: number, passMs: number): Record<string, string> {
  const half = Math.max(1, Math.floor(sustainablePerS / 2));
  const inFlight = (sustainablePerS / 2) * (passMs / 1000) + sustainablePerS / 10;
  return {
    MEMORY_TENANT_RATE_PER_S: String(half),
    MEMORY_TENANT_BURST: String(half),
    MEMORY_TENANT_MAX_IN_FLIGHT: String(Math.max(1, Math.ceil(inFlight))),
    MEMORY_MAX_BACKLOG_RECORDS: String(Math.max(1, Math.ceil(sustainablePerS))),
  };
}

/** What the scenario checks (issue 19, part 5), as pass or fail with the figures it read. */
export function overloadVerdicts(figures: OverloadFigures): Array<{ check: string; pass: boolean }> {
  const { loud, quietAlone, quietLoaded, quietPartition } = figures;
  const loudP95 = loud.latency.p95;
  const ratio = quietAlone.latency.p95 && quietLoaded.latency.p95 ? quietLoaded.latency.p95 / quietAlone.latency.p95 : null;
  return [
    { check: `accepted memories searchable: p95 ${fmt(loudP95)} ms <= 2,000 ms, none lost (${loud.neverFound} never found)`, pass: loudP95 !== null && loudP95 <= 2_000 && loud.neverFound === 0 },
    { check: `the other tenant (${PARTITION_WORDS[quietPartition]} partition): p95 ${fmt(quietLoaded.latency.p95)} ms <= 1.5 x its ${fmt(quietAlone.latency.p95)} ms alone (${ratio === null ? '-' : ratio.toFixed(2)} x), nothing refused`, pass: ratio !== null && ratio <= 1.5 && quietLoaded.accepted === quietLoaded.sent },
    memoryVerdict(figures),
  ];
}

/**
 * What a process's first flood of refusals makes once and keeps (the code compiled for the refusal path, pools grown
 * to the load): the distributed edge's live heap rose 34 -> 43-45 MB over a first 60 s flood at 5 x R and stayed
 * there through two more, so a flood may add this much before the refused count as left behind. A leak of a
 * kilobyte per refused request (some 17,000-27,000 a run) passes it.
 */
const WARM_UP_MB = 24;

/**
 * Memory bounded: what the process holds after the flood is what it accepted, not what it was sent. Read on the live
 * JS heap after a full collection, not on RSS: under load V8 lets garbage pile up for a minute before its first full
 * collection, so RSS within 60 s says more about the collector than about what is kept. The heap may grow by what
 * the accepted memories take (what one stored memory adds to it, from the run's footprints) and by the first flood's
 * warm-up (a tenth of the heap, WARM_UP_MB at least); the refused requests may leave nothing beyond that.
 */
function memoryVerdict({ heap, loud, quietAlone, quietLoaded, rss, heapPerMemoryMb }: OverloadFigures): { check: string; pass: boolean } {
  const rssWords = `RSS ${fmt(rss.beforeMb)} MB before, peak ${fmt(rss.firstHalfPeakMb)} MB in the first half and ${fmt(rss.secondHalfPeakMb)} MB in the second`;
  if (!heap.before || !heap.after) return { check: `memory bounded: not read (the live heap ${heap.before ? 'after the flood: no full collection came' : 'before the flood: /metrics gave none'}); ${rssWords}`, pass: false };
  const accepted = loud.accepted + quietLoaded.accepted + quietAlone.accepted;
  const warmUpMb = Math.max(heap.before.mb * 0.1, WARM_UP_MB);
  const allowanceMb = accepted * (heapPerMemoryMb ?? 0) + warmUpMb;
  const grownMb = heap.after.mb - heap.before.mb;
  const perMemory = heapPerMemoryMb === null ? 'no per-memory figure in this run' : `${(heapPerMemoryMb * 1024).toFixed(1)} KB each`;
  return {
    check: `memory bounded: live JS heap ${heap.before.mb.toFixed(0)} -> ${heap.after.mb.toFixed(0)} MB over the flood (${loud.sent.toLocaleString('en-US')} sent), at most ${allowanceMb.toFixed(0)} MB more: ${accepted.toLocaleString('en-US')} accepted memories (${perMemory}) and ${warmUpMb.toFixed(0)} MB of warm-up; ${rssWords}`,
    pass: grownMb <= allowanceMb,
  };
}

export interface OverloadFigures {
  sustainablePerS: number;
  limits: Record<string, string>;
  seconds: number;
  /** Whether the other tenant's end user shared the loud one's partition while both sent. */
  quietPartition: QuietPartition;
  loud: Freshness;
  /** The other tenant's memories sent to warm the restarted service up, not counted in any figure. */
  warmUp: Freshness;
  quietAlone: Freshness;
  quietLoaded: Freshness;
  /** Resident memory of the service's processes, sampled each second of the overload. */
  rss: { beforeMb: number | null; peakMb: number | null; firstHalfPeakMb: number | null; secondHalfPeakMb: number | null; samplesMb: number[] };
  /**
   * The live JS heap of the process at the target's address (the embedded service, the distributed mode's edge):
   * before the flood, and after the first full collection that followed it; null where /metrics did not answer or
   * no full collection came.
   */
  heap: { before: LiveHeap | null; after: LiveHeap | null };
  /** What one more stored memory adds to the live heap, from the run's footprints; null when not measured. */
  heapPerMemoryMb: number | null;
}

/**
 * Where the other tenant's end user is put beside the loud one: on the same partition, the worst case (its records
 * share every stage's batches with the flood's), or on another.
 */
export type QuietPartition = 'shared' | 'separate';

const PARTITION_WORDS: Record<QuietPartition, string> = { shared: "the loud one's", separate: 'another' };

/** The tenants of the bench's two API keys (TEST_KEYS.acme sends the flood, TEST_KEYS.globex is the other). */
const LOUD_TENANT = 'acme';
const QUIET_TENANT = 'globex';

/**
 * How long the other tenant sends, not counted, before its figure alone is read: the service has just been restarted,
 * and its first seconds (code not yet optimised, connections and caches being made) are slower than any after them;
 * a p95 over a hundred memories read them, and the ratio with them.
 */
const WARM_UP_SECONDS = 10;

/** Each tenant's poller asks every 50 ms, so the two together search no more often than the freshness row's one. */
const POLL_MS = 50;

const fmt = (value: number | null) => (value === null ? '-' : Math.round(value).toLocaleString('en-US'));
const peak = (values: number[]) => (values.length > 0 ? Math.max(...values) : null);

/**
 * overload_*: one tenant sends text memories at five times the sustainable rate for `seconds` while another sends
 * at a tenth of it, the service running under overloadLimits; the other tenant's freshness alone first, for its
 * unloaded figure. The other's end user is by default on the loud one's partition (of the service's default 8):
 * "another tenant unaffected" must hold whichever partition a tenant's users hash to, and that is the worst case. The service's resident memory is sampled every second. The service is
 * restarted with the limits and again with its own settings after, on the same address.
 */
export async function overloadScenario(
  target: Target & { restart: NonNullable<Target['restart']>; otherApiKey: string },
  options: { sustainablePerS: number; passMs: number; seconds: number; aloneSeconds: number; runId: string; nextSeed: () => number; quietPartition?: QuietPartition; heapPerMemoryMb: number | null },
  print: Print,
): Promise<{ figures: OverloadFigures; rows: PerformanceRow[] }> {
  const { sustainablePerS, seconds, runId, nextSeed } = options;
  const quietPartition = options.quietPartition ?? 'shared';
  const loudUser = { tenantId: LOUD_TENANT, endUserId: `loud-${runId}` };
  const quietUser = quietPartition === 'shared' ? samePartitionUser(QUIET_TENANT, `quiet-loaded-${runId}`, loudUser) : otherPartitionUser(QUIET_TENANT, `quiet-loaded-${runId}`, [loudUser]);
  const limits = overloadLimits(sustainablePerS, options.passMs);
  print(`\n[overload] restarting the service with ${Object.entries(limits).map(([name, value]) => `${name}=${value}`).join(' ')}`);
  await target.restart(limits);
  try {
    const loudRate = 5 * sustainablePerS;
    const quietRate = Math.max(1, sustainablePerS / 10);
    const quiet = { kind: 'freshness' as const, url: target.url, apiKey: target.otherApiKey, ratePerS: quietRate, refusable: true, pollMs: POLL_MS };
    print(`\n[overload] warming the restarted service up: the other tenant at ${quietRate.toFixed(1)} memories/s for ${WARM_UP_SECONDS} s, not counted`);
    const warmUp = await runLoad({ ...quiet, seed: nextSeed(), endUserId: `quiet-warm-up-${runId}`, seconds: WARM_UP_SECONDS }, print);
    print(`\n[overload] the other tenant alone: ${quietRate.toFixed(1)} memories/s for ${options.aloneSeconds} s`);
    const quietAlone = await runLoad({ ...quiet, seed: nextSeed(), endUserId: `quiet-alone-${runId}`, seconds: options.aloneSeconds }, print);

    print(`\n[overload] one tenant at ${loudRate.toFixed(0)} memories/s (5 x ${sustainablePerS.toFixed(1)}) and the other at ${quietRate.toFixed(1)}/s, for ${seconds} s, the other's end user on ${PARTITION_WORDS[quietPartition]} partition`);
    const beforeMb = treeResidentMb(target.pid());
    const samples: number[] = [];
    const heapBefore = await liveHeap(target.url);
    const sampler = setInterval(() => {
      const mb = treeResidentMb(target.pid());
      if (mb !== null) samples.push(mb);
    }, 1_000);
    const [loud, quietLoaded] = await Promise.all([
      runLoad({ kind: 'freshness', url: target.url, apiKey: target.apiKey, seed: nextSeed(), endUserId: loudUser.endUserId, ratePerS: loudRate, seconds, refusable: true, pollMs: POLL_MS }, print),
      runLoad({ ...quiet, seed: nextSeed(), endUserId: quietUser, seconds }, print),
    ]).finally(() => clearInterval(sampler));
    print('  waiting for the service\'s next full garbage collection, for its live heap after the flood');
    const waitStarted = performance.now();
    const heapAfter = await nextFullCollection(target.url);
    print(`  ${heapAfter ? 'it came' : 'none came'} after ${((performance.now() - waitStarted) / 1000).toFixed(1)} s`);
    const half = Math.ceil(samples.length / 2);
    const figures: OverloadFigures = {
      sustainablePerS,
      limits,
      seconds,
      quietPartition,
      loud,
      warmUp,
      quietAlone,
      quietLoaded,
      rss: { beforeMb, peakMb: peak(samples), firstHalfPeakMb: peak(samples.slice(0, half)), secondHalfPeakMb: peak(samples.slice(half)), samplesMb: samples },
      heap: { before: heapBefore, after: heapAfter },
      heapPerMemoryMb: options.heapPerMemoryMb,
    };
    const refusals = Object.entries(loud.refused).map(([status, count]) => `${count} x ${status}`).join(', ') || 'none';
    print(`  loud tenant: ${loud.sent} sent, ${loud.accepted} accepted, refused ${refusals}`);
    for (const verdict of overloadVerdicts(figures)) print(`  ${verdict.pass ? 'PASS' : 'FAIL'} ${verdict.check}`);
    const rows: PerformanceRow[] = [
      { metric: 'overload_accepted', condition: `5x (${loudRate.toFixed(0)}/s) for ${seconds} s: accepted / sent`, value: loud.sent ? loud.accepted / loud.sent : null, unit: '' },
      { metric: 'overload_fresh_ms', condition: 'the accepted, 202 to searchable', value: loud.latency.count, unit: 'found', latency: loud.latency },
      { metric: 'overload_other_ms', condition: `other tenant ${quietRate.toFixed(1)}/s, alone`, value: quietAlone.latency.count, unit: 'found', latency: quietAlone.latency },
      { metric: 'overload_other_ms', condition: `other tenant ${quietRate.toFixed(1)}/s, during, on ${PARTITION_WORDS[quietPartition]} partition`, value: quietLoaded.latency.count, unit: 'found', latency: quietLoaded.latency },
      { metric: 'overload_rss_mb', condition: `peak (${fmt(beforeMb)} MB before)`, value: figures.rss.peakMb, unit: 'MB' },
    ];
    return { figures, rows };
  } finally {
    print('\n[overload] restarting the service with its own settings');
    await target.restart({});
  }
}
