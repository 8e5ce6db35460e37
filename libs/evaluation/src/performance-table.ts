import type { LatencySummary } from './latency.js';

/** One line of the performance table: a figure under a condition, with its latency percentiles when it has some. */
export interface PerformanceRow {
  metric: string;
  /** What the figure was measured under, e.g. "c=16" or "1k memories, 8 clients". */
  condition: string;
  value: number | null;
  unit: string;
  latency?: LatencySummary | null;
}

const COLUMNS = { metric: 16, condition: 26, value: 10, unit: 10, ms: 9 };

/**
 * A fixed-width plain-text table, so two runs can be diffed line by line; "-" for a figure that was not measured.
 * Latency columns are in milliseconds.
 */
export function formatPerformanceTable(rows: readonly PerformanceRow[]): string {
  const header = [
    'metric'.padEnd(COLUMNS.metric),
    'condition'.padEnd(COLUMNS.condition),
    'value'.padStart(COLUMNS.value),
    ' unit'.padEnd(COLUMNS.unit),
    'p50 ms'.padStart(COLUMNS.ms),
    'p95 ms'.padStart(COLUMNS.ms),
    'p99 ms'.padStart(COLUMNS.ms),
  ].join(' ');
  const lines = rows.map((row) =>
    [
      row.metric.padEnd(COLUMNS.metric),
      row.condition.padEnd(COLUMNS.condition),
      number(row.value).padStart(COLUMNS.value),
      ` ${row.unit}`.padEnd(COLUMNS.unit),
      number(row.latency?.p50 ?? null).padStart(COLUMNS.ms),
      number(row.latency?.p95 ?? null).padStart(COLUMNS.ms),
      number(row.latency?.p99 ?? null).padStart(COLUMNS.ms),
    ]
      .join(' ')
      .trimEnd(),
  );
  return [header.trimEnd(), '-'.repeat(header.trimEnd().length), ...lines].join('\n');
}

/** Three significant figures at most, whole numbers from 100 up: enough to compare, short enough to read. */
function number(value: number | null): string {
  if (value === null || !Number.isFinite(value)) return '-';
  const abs = Math.abs(value);
  if (abs >= 100) return Math.round(value).toString();
  if (abs >= 10) return value.toFixed(1);
  return value.toFixed(2);
}
