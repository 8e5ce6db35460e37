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

const COMPARE_COLUMNS = { metric: 16, condition: 26, figure: 12 };

/**
 * Two modes' rows side by side: the n-th row of a metric in one run beside the n-th of the same metric in the other
 * (both runs emit their scenarios in one order; a condition may hold a measured rate, so it cannot be the key). Each
 * side shows its figure (the p50 for a latency metric, `*_ms`, whose value is a sample count) and its p95, then the
 * second over the first: for a rate, below 1 is slower; for a latency, above 1 is slower. Taken from one run, so a
 * noisy machine weighs on both columns alike. A row only one mode measured shows "-" on the other side.
 */
export function formatComparisonTable(names: readonly [string, string], first: readonly PerformanceRow[], second: readonly PerformanceRow[]): string {
  const keyed = (rows: readonly PerformanceRow[]) => {
    const seen = new Map<string, number>();
    return rows.map((row) => {
      const n = (seen.get(row.metric) ?? 0) + 1;
      seen.set(row.metric, n);
      return { key: `${row.metric}#${n}`, row };
    });
  };
  const firstKeyed = keyed(first);
  const secondByKey = new Map(keyed(second).map(({ key, row }) => [key, row]));
  const firstKeys = new Set(firstKeyed.map(({ key }) => key));
  const pairs: Array<[PerformanceRow | undefined, PerformanceRow | undefined]> = [
    ...firstKeyed.map(({ key, row }): [PerformanceRow, PerformanceRow | undefined] => [row, secondByKey.get(key)]),
    ...keyed(second).filter(({ key }) => !firstKeys.has(key)).map(({ row }): [undefined, PerformanceRow] => [undefined, row]),
  ];
  const figure = (row: PerformanceRow | undefined) => (row?.latency && row.metric.endsWith('_ms') ? row.latency.p50 : row?.value) ?? null;
  const ratio = (a: number | null | undefined, b: number | null | undefined) => (a && b !== null && b !== undefined ? b / a : null);
  const cell = (value: number | null | undefined) => number(value ?? null).padStart(COMPARE_COLUMNS.figure);
  const [a, b] = names;
  const header = [
    'metric'.padEnd(COMPARE_COLUMNS.metric),
    'condition'.padEnd(COMPARE_COLUMNS.condition),
    ...[a, b, 'ratio', `p95 ${a}`, `p95 ${b}`, 'p95 ratio'].map((name) => name.slice(0, COMPARE_COLUMNS.figure).padStart(COMPARE_COLUMNS.figure)),
  ].join(' ');
  const lines = pairs.map(([x, y]) => {
    const conditions = [...new Set([x?.condition, y?.condition].filter((c): c is string => c !== undefined))];
    return [
      (x ?? y)!.metric.padEnd(COMPARE_COLUMNS.metric),
      conditions.join(' | ').padEnd(COMPARE_COLUMNS.condition),
      cell(figure(x)),
      cell(figure(y)),
      cell(ratio(figure(x), figure(y))),
      cell(x?.latency?.p95),
      cell(y?.latency?.p95),
      cell(ratio(x?.latency?.p95, y?.latency?.p95)),
    ].join(' ').trimEnd();
  });
  return [header.trimEnd(), '-'.repeat(header.trimEnd().length), ...lines].join('\n');
}
