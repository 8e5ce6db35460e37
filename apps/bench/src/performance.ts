import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { formatComparisonTable, formatPerformanceTable, type PerformanceRow } from '@memory/evaluation';
import { UsageError } from './args.js';
import { requireEngines, startDistributedService } from './distributed-service.js';
import { PERF_USAGE, parsePerfArgs } from './perf-args.js';
import { PERF_PLANS } from './perf-plan.js';
import { runScenarios } from './perf-run.js';
import { killTree } from './process-tree.js';
import type { Print } from './progress.js';
import { runMain } from './run-main.js';
import { startEmbeddedService, type Target } from './service.js';

/**
 * `npm run bench`: the performance scenarios of issue 6 against a freshly started service over HTTP, a table on
 * stdout and every figure in --json. Three processes: the service, this one (orchestration, bulk loading, the bare
 * model) and a load generator per timed scenario.
 */
const print: Print = (line) => process.stdout.write(`${line}\n`);

async function main(): Promise<number> {
  let options;
  try {
    options = parsePerfArgs(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n\n${PERF_USAGE}\n`);
      return 2;
    }
    throw error;
  }
  if (options.help) {
    print(PERF_USAGE);
    return 0;
  }
  const plan = PERF_PLANS[options.scale];
  const modes: Array<'embedded' | 'distributed'> = options.mode === 'both' ? ['embedded', 'distributed'] : [options.mode];
  const dataDir = mkdtempSync(join(tmpdir(), 'memory-perf-'));
  let target: Target | null = null;
  // Ctrl-C stops the service too, and removes its data: it would otherwise go on working through the backlog.
  const interrupted = async () => {
    if (target) await stopOrKill(target, 2_000);
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(130);
  };
  process.once('SIGINT', () => void interrupted());
  process.once('SIGTERM', () => void interrupted());
  const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', memoryGb: totalmem() / 2 ** 30, node: process.version, platform: process.platform };
  const runs: Array<{ mode: 'embedded' | 'distributed'; figures: unknown; rows: PerformanceRow[] }> = [];
  try {
    // Before the embedded part, so a run that would end in the distributed mode fails at once.
    if (modes.includes('distributed')) await requireEngines();
    // One mode after the other, each on a fresh service, so they never share the cores while being measured.
    for (const mode of modes) {
      target = mode === 'distributed' ? await startDistributedService(print) : await startEmbeddedService(join(dataDir, mode), print);
      const { figures, rows } = await runScenarios(target, plan, print);
      await stopOrKill(target);
      target = null;
      runs.push({ mode, figures, rows });
      print(`\nperformance, ${mode} mode, ${options.scale} scale; ${machine.cpus} x ${machine.cpuModel}, Node ${machine.node}; load generator in its own process\n`);
      print(formatPerformanceTable(rows));
    }
    if (runs.length === 2) {
      print(`\nthe two modes side by side (distributed over embedded), ${options.scale} scale\n`);
      print(formatComparisonTable(['embedded', 'distrib'], runs[0]!.rows, runs[1]!.rows));
    }
    if (options.json) {
      const file = resolve(options.json);
      mkdirSync(dirname(file), { recursive: true });
      const finishedAt = new Date().toISOString();
      const document = runs.length === 1
        ? { mode: runs[0]!.mode, scale: options.scale, finishedAt, machine, plan, figures: runs[0]!.figures, rows: runs[0]!.rows }
        : { mode: 'both', scale: options.scale, finishedAt, machine, plan, modes: Object.fromEntries(runs.map((run) => [run.mode, { figures: run.figures, rows: run.rows }])) };
      writeFileSync(file, JSON.stringify(document, null, 2));
      print(`\nfigures written to ${file}`);
    }
    return 0;
  } finally {
    if (target) await stopOrKill(target);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * A graceful stop lets the service work through its backlog first, minutes after the edge scenario's flood; the
 * data is thrown away anyway, so after a short grace period the service (and its stage processes) are killed.
 */
async function stopOrKill(target: Target, graceMs = 10_000): Promise<void> {
  const pid = target.pid();
  const timer = setTimeout(() => {
    if (pid !== null) killTree(pid);
  }, graceMs);
  await target.stop().catch(() => undefined);
  clearTimeout(timer);
}

runMain(main);
