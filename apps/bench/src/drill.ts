import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  formatReport,
  passed,
  runCrash,
  readMetric,
  runJoin,
  runOutage,
  sleep,
  type DrillEngine,
  type EngineControl,
  type JoinControl,
  type JoinTarget,
  type KillTarget,
  type PhaseResult,
  type ProcessControl,
} from '@memory/drill';
import { appOfScript, stageWorkerName } from '@memory/composition';
import { processTree } from '@memory/platform';
import { drawNumbered, TEST_KEYS, unusedPort, writePdf, type ServiceProcess } from '@memory/testing';
import { UsageError } from './args.js';
import { launchDistributed } from './distributed-service.js';
import { DRILL_USAGE, parseDrillArgs } from './drill-args.js';
import type { Print } from './progress.js';
import { runMain } from './run-main.js';

const print: Print = (line) => process.stdout.write(`${line}\n`);
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const ENGINES_CLI = join(repoRoot, 'deploy', 'engines', 'cli.mjs');

/** The addresses of the engine set the environment names (MEMORY_ENGINES_DIR, MEMORY_ENGINES_PORT_OFFSET), as `cli.mjs env` prints them. */
function engineAddresses(): Record<string, string> {
  const run = spawnSync(process.execPath, [ENGINES_CLI, 'env'], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${ENGINES_CLI} env failed: ${run.stderr}`);
  return Object.fromEntries(run.stdout.trim().split('\n').map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
}

/** `cli.mjs down|up <engine>` on the same set, its lines indented in the drill's output. */
const engineScripts: EngineControl = {
  stop: (engine) => engineCommand('down', engine),
  start: (engine) => engineCommand('up', engine),
};

function engineCommand(command: 'down' | 'up', engine: DrillEngine): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [ENGINES_CLI, command, engine], { stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on('line', (line) => print(`    ${line}`));
    child.once('error', fail);
    child.once('exit', (code) => (code === 0 ? done() : fail(new Error(`node deploy/engines/cli.mjs ${command} ${engine} exited with ${code}`))));
  });
}

/** The supervisor's name of each process the drill can kill (start-distributed prefixes its lines with it). */
const PROCESS_NAMES: Record<KillTarget, string> = {
  edge: 'edge',
  search: 'search',
  enricher: 'enricher',
  temporal: 'temporal-resolver',
  'dual-writer': 'dual-writer',
  calibrator: 'centroid-calibrator',
  'job-tracker': 'job-tracker',
};

/**
 * The launcher's child running `name` (an app, or a stage: its worker, alone or shared), found by its script, source
 * or compiled, and MEMORY_STAGES, in /proc; with the name the launcher prints its lines under.
 */
function processOf(launcher: ServiceProcess, name: string): { pid: number; label: string } | null {
  for (const pid of processTree(launcher.pid ?? -1).slice(1)) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      const app = args.map(appOfScript).find((found) => found !== null);
      if (app === name && (app === 'edge' || app === 'search')) return { pid, label: app };
      if (app !== 'stage-worker') continue;
      const stages = /(?:^|\0)MEMORY_STAGES=([^\0]*)/.exec(readFileSync(`/proc/${pid}/environ`, 'utf8'))?.[1]?.split(',');
      // A worker runs one stage, or several (MEMORY_STAGE_WORKERS=shared): killing it kills each of them.
      if (stages?.includes(name)) return { pid, label: stageWorkerName(stages) };
    } catch {
      // Gone between the listing and the read.
    }
  }
  return null;
}

/** kill -9 by pid; the restart is seen in the supervisor's output, as one more ready line of that process. */
function processControl(launcher: ServiceProcess): ProcessControl {
  const readyLines = (name: string) => launcher.logs().split('\n').filter((line) => line.startsWith(`[${name}] `) && / ready on /.test(line)).length;
  const before = new Map<string, { label: string; ready: number }>();
  return {
    async kill(target) {
      const name = PROCESS_NAMES[target];
      const found = processOf(launcher, name);
      if (found === null) throw new Error(`no running ${name} process under the launcher (pid ${launcher.pid})`);
      before.set(name, { label: found.label, ready: readyLines(found.label) });
      process.kill(found.pid, 'SIGKILL');
      return { pid: found.pid };
    },
    async awaitRestart(target) {
      const name = PROCESS_NAMES[target];
      const deadline = Date.now() + 180_000;
      const { label, ready } = before.get(name) ?? { label: name, ready: 0 };
      while (readyLines(label) <= ready) {
        if (Date.now() > deadline) throw new Error(`${name} was not running again 180 s after the kill`);
        await sleep(100);
      }
    },
  };
}

/** What the extra process of a join drill did, read from its /metrics. */
const SERVED_METRIC: Record<JoinTarget, [string, Record<string, string>]> = {
  enricher: ['memory_stage_records_total', { stage: 'enricher', outcome: 'processed' }],
  search: ['memory_http_requests_total', { route: '/v1/search', method: 'POST', status: '200' }],
};

/**
 * A second enricher or search app started as an operator would by hand: the same entry point and variables as the
 * supervisor's process of that name (read from /proc), on its own port (`searchPort` for a search app: the edge
 * lists it beside the first).
 */
function joinControl(launcher: ServiceProcess, searchPort: number): JoinControl {
  let extra: { child: ChildProcess; url: string; output: string[] } | null = null;
  return {
    async join(target) {
      const pid = processOf(launcher, target)?.pid;
      if (pid === undefined) throw new Error(`no running ${target} process under the launcher (pid ${launcher.pid}) to copy`);
      const [command, ...args] = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      const env = Object.fromEntries(readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean).map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));
      const child = spawn(command!, args, { env: { ...env, PORT: target === 'search' ? String(searchPort) : '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
      const output: string[] = [];
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the second ${target} was not ready after 240 s:\n${output.slice(-20).join('\n')}`)), 240_000);
        for (const stream of [child.stdout, child.stderr]) {
          createInterface({ input: stream }).on('line', (line) => {
            output.push(line);
            const ready = / ready on (http:\/\/\S+)/.exec(line);
            if (ready) {
              clearTimeout(timer);
              resolve(ready[1]!);
            }
          });
        }
        child.once('exit', (code, signal) => reject(new Error(`the second ${target} exited (${signal ?? `code ${code}`}) before it was ready:\n${output.slice(-20).join('\n')}`)));
      });
      extra = { child, url, output };
      return { pid: child.pid ?? -1 };
    },
    async served(target) {
      if (!extra) return 0;
      const [name, labels] = SERVED_METRIC[target];
      return readMetric(extra.url, name, labels);
    },
    async leave() {
      const child = extra?.child;
      extra = null;
      if (!child || child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** npm run drill: outage drills (--engine), crash drills (--kill) and join drills (--join) against the distributed mode; exit 1 unless all pass. */
async function main(): Promise<number> {
  let options;
  try {
    options = parseDrillArgs(process.argv.slice(2), () => randomInt(1, 2 ** 31));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n\n${DRILL_USAGE}\n`);
    return 2;
  }
  if (!options) {
    print(DRILL_USAGE);
    return 0;
  }
  const engines = engineAddresses();
  print(`engines: ${['KAFKA_BROKERS', 'MEMORY_SCHEMA_REGISTRY_URL', 'ELASTICSEARCH_URL', 'MEMORY_S3_ENDPOINT'].map((key) => `${key}=${engines[key]}`).join(' ')}`);
  // Fixed ports: the edge and the search app keep theirs across a restart, as a deployment's do.
  const [edgePort, searchPort, secondSearchPort] = [await unusedPort(), await unusedPort(), await unusedPort()];
  // A search join: the edge lists the second search app from the start, as an operator's configuration would; it
  // takes searches there once the app answers.
  const secondSearch: Record<string, string> = options.mode === 'join' && options.target === 'search' ? { MEMORY_SEARCH_URL: `http://127.0.0.1:${secondSearchPort}` } : {};
  const deployment = await launchDistributed(print, { ...engines, PORT: String(edgePort), MEMORY_SEARCH_PORT: String(searchPort), ...secondSearch });
  const api = { url: deployment.service.url, apiKey: TEST_KEYS.acme };
  const runId = randomBytes(3).toString('hex');
  const results: PhaseResult[] = [];
  try {
    if (options.mode === 'outage') {
      const files = { image: drawNumbered, pdf: (index: number) => writePdf([`Drill delivery note ${runId}-${index}: parcel ${index} left the depot on time.`]) };
      for (const engine of options.engines) {
        print(`outage drill: ${engine} down for ${options.seconds} s, ${options.rate} memories/s${engine === 'minio' ? ' (texts, images and PDFs)' : ''}`);
        results.push(await runOutage({ api, engine, seconds: options.seconds, rate: options.rate, runId, control: engineScripts, files, print }));
      }
    } else if (options.mode === 'join') {
      print(`join drill: a second ${options.target} joins mid-stream and leaves after ${options.holdS} s; ${options.memories} memories at ${options.rate}/s, ${options.searchRate} searches/s`);
      const control = joinControl(deployment.service, secondSearchPort);
      try {
        results.push(await runJoin({ api, target: options.target, memories: options.memories, rate: options.rate, holdS: options.holdS, searchRate: options.searchRate, runId, control, print }));
      } finally {
        await control.leave(options.target);
      }
    } else {
      print(`crash drill: kill -9 ${options.target}, ${options.trials} trials, ${options.memories} memories, ${options.rate}/s, seed ${options.seed}`);
      results.push(...(await runCrash({ api, target: options.target, trials: options.trials, memories: options.memories, rate: options.rate, seed: options.seed, runId, processes: processControl(deployment.service), print })));
    }
  } finally {
    // The deployment's own log lines, for a timeline of what a drill waited on (MEMORY_DRILL_LOG=file).
    if (process.env.MEMORY_DRILL_LOG) writeFileSync(process.env.MEMORY_DRILL_LOG, deployment.service.logs());
    await deployment.stop();
  }
  for (const line of formatReport(results)) print(line);
  // The machine's load beside the figures: drain times on shared cores say little without it.
  const load = loadavg().map((n) => n.toFixed(2));
  print(`load average (1, 5, 15 min) at the end: ${load.join(', ')}`);
  if (options.json) writeFileSync(options.json, JSON.stringify({ options, load, results }, null, 2));
  return results.every((result) => passed(result.criteria)) ? 0 : 1;
}

runMain(main);
