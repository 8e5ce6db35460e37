import type { FuzzReport } from './run.js';

/** The run as lines to print: counts by answer and by kind, every failure with how to replay it, RSS over time, the verdict. */
export function formatReport(report: FuzzReport, replay: (index: number) => string): string[] {
  const lines: string[] = [];
  const sorted = (record: Record<string, number>) => Object.entries(record).sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }));
  lines.push(`${report.requests} hostile requests (seed ${report.seed}) over ${report.routes.length} routes in ${(report.durationMs / 1000).toFixed(1)} s`);
  lines.push('', 'Answers by status and code:');
  for (const [label, n] of sorted(report.byStatus)) lines.push(`  ${String(n).padStart(6)}  ${label}`);
  lines.push('', 'Requests by kind:');
  for (const [kind, n] of sorted(report.byKind)) lines.push(`  ${String(n).padStart(6)}  ${kind}`);
  lines.push('', `Failures: ${report.failures.length}`);
  for (const failure of report.failures.slice(0, 50)) {
    lines.push(`  #${failure.index} ${failure.kind} on ${failure.route}: ${failure.problem}`, `    replay: ${replay(failure.index)}`, ...failure.request.split('\n').slice(0, 12).map((line) => `    | ${line}`));
  }
  if (report.failures.length > 50) lines.push(`  ... and ${report.failures.length - 50} more (all of them in --json)`);
  const series = report.rss.filter((_, i) => i % Math.max(1, Math.ceil(report.rss.length / 12)) === 0 || i === report.rss.length - 1);
  lines.push('', `RSS of the service (MB) over time: ${series.length ? series.map((s) => `${(s.atMs / 1000).toFixed(0)}s ${s.mb}`).join(', ') : 'not measured (a service at --url)'}`);
  if (report.maxRssMb !== null) lines.push(`  max ${report.maxRssMb} MB (limit ${report.rssLimitMb} MB)`);
  const v = report.valid;
  lines.push('', `Valid traffic: ${v.accepted}/${v.ingests} ingestions accepted, ${v.completed} completed; ${v.searchesOk}/${v.searches} searches answered 200`);
  for (const failure of v.failures.slice(0, 20)) lines.push(`  ${failure}`);
  lines.push(`Service alive after the run: ${report.alive ? 'yes' : 'NO'}`);
  lines.push('', report.pass ? 'PASS: no 5xx, every 4xx with its error body, the service up with bounded RSS, valid traffic completed' : 'FAIL');
  return lines;
}
