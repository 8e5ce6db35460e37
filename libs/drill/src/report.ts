import type { PhaseResult } from './outage.js';
import { passed } from './verdict.js';

const COLUMNS = ['phase', 'sent', 'statuses', 'accepted', 'completed', 'missing', 'dup (content)', 'dup (job)', 'drain s', 'verdict'] as const;

/** The table of a drill, one row per engine or trial, then each failed criterion with its detail. */
export function formatReport(results: readonly PhaseResult[]): string[] {
  const rows = results.map((result) => {
    const c = result.counts;
    const statuses = Object.entries(c.statuses)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, n]) => `${status}:${n}`)
      .join(' ');
    return [result.name, String(c.sent), statuses, String(c.accepted), String(c.completed), String(c.missing), String(c.duplicatedByContent), String(c.duplicatedByJob), result.drainS === null ? '-' : result.drainS.toFixed(1), passed(result.criteria) ? 'PASS' : 'FAIL'];
  });
  const widths = COLUMNS.map((column, i) => Math.max(column.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd();
  const lines = [line(COLUMNS), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
  for (const result of results) {
    lines.push(`${result.name}:`);
    for (const criterion of result.criteria) lines.push(`  ${criterion.pass ? 'PASS' : 'FAIL'}  ${criterion.name} (${criterion.detail})`);
    for (const note of result.notes) lines.push(`  note: ${note}`);
  }
  const failed = results.filter((result) => !passed(result.criteria)).length;
  lines.push(failed === 0 ? `PASS: ${results.length} of ${results.length}` : `FAIL: ${failed} of ${results.length} failed`);
  return lines;
}
