import { percentile } from './stats.js';

/** A latency sample in milliseconds, as benchmarks report it. */
export interface LatencySummary {
  count: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  max: number | null;
}

export function summarizeLatencies(ms: readonly number[]): LatencySummary {
  return {
    count: ms.length,
    p50: percentile(ms, 50),
    p95: percentile(ms, 95),
    p99: percentile(ms, 99),
    // A loop, not Math.max(...ms): a spread of a long run's samples would overflow the stack.
    max: ms.length ? ms.reduce((a, b) => (b > a ? b : a)) : null,
  };
}
