import type { StepTiming } from '@memory/platform';
import { percentile } from './stats.js';

/** One measured unit of work (a search, an ingested memory): its steps, each with its count and wall time. */
export type BreakdownSample = readonly StepTiming[];

/** A step over all samples: in how many it ran, its median count and its median and p95 wall time (ms). */
export interface StepSummary {
  step: string;
  samples: number;
  count: number;
  p50: number;
  p95: number;
}

/**
 * Medians per step over repetitions of one unit of work, in the order steps first appear. A step missing from a
 * sample is left out of that step's figures rather than counted as 0, and `samples` says how often it ran.
 */
export function summariseBreakdown(samples: readonly BreakdownSample[]): StepSummary[] {
  const byStep = new Map<string, { counts: number[]; ms: number[] }>();
  for (const sample of samples) {
    for (const { step, count, ms } of sample) {
      const seen = byStep.get(step) ?? { counts: [], ms: [] };
      seen.counts.push(count);
      seen.ms.push(ms);
      byStep.set(step, seen);
    }
  }
  return [...byStep].map(([step, { counts, ms }]) => ({ step, samples: ms.length, count: percentile(counts, 50)!, p50: percentile(ms, 50)!, p95: percentile(ms, 95)! }));
}

/**
 * A search as the client saw it through the edge: the steps the search app and the edge reported (Server-Timing),
 * and the two hops only the difference between nested wall times shows: `hop.edge-to-search` (the relay's round trip
 * to the search app less the search app's own time: HTTP between them, parsing, the answer's bytes) and
 * `hop.client-to-edge` (the client's wall time less the relay: the edge's auth, routing and the client's own HTTP).
 */
export function searchSample(clientMs: number, reported: readonly StepTiming[]): BreakdownSample {
  const ms = (step: string) => reported.find((s) => s.step === step)?.ms;
  const relay = ms('edge.relay');
  const search = ms('search');
  const hops: StepTiming[] = [];
  if (relay !== undefined && search !== undefined) hops.push({ step: 'hop.edge-to-search', count: 1, ms: relay - search });
  if (relay !== undefined) hops.push({ step: 'hop.client-to-edge', count: 1, ms: clientMs - relay });
  return [{ step: 'client', count: 1, ms: clientMs }, ...reported, ...hops];
}

/** The moments one ingested memory passed, ms epoch: each named moment is a step from the one before it. */
export function ingestSample(moments: ReadonlyArray<{ step: string; at: number | null }>): BreakdownSample {
  const sample: StepTiming[] = [];
  let previous: number | null = null;
  for (const { step, at } of moments) {
    if (at === null) continue;
    if (previous !== null) sample.push({ step, count: 1, ms: at - previous });
    previous = at;
  }
  return sample;
}

const number = (value: number) => (Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(1));

/** A fixed-width table of a breakdown: step, times it ran per unit (median), p50 and p95 ms, and in how many samples. */
export function formatBreakdownTable(title: string, steps: readonly StepSummary[], total: number): string {
  const width = Math.max(28, ...steps.map((s) => s.step.length + 1));
  const header = `${'step'.padEnd(width)} ${'count'.padStart(6)} ${'p50 ms'.padStart(9)} ${'p95 ms'.padStart(9)} ${'samples'.padStart(8)}`;
  const lines = steps.map((s) => `${s.step.padEnd(width)} ${String(s.count).padStart(6)} ${number(s.p50).padStart(9)} ${number(s.p95).padStart(9)} ${`${s.samples}/${total}`.padStart(8)}`);
  return [title, header, ...lines].join('\n');
}
