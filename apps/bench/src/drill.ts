import { spawn, spawnSync } from 'node:child_process';
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
  runOutage,
  sleep,
  type DrillEngine,
  type EngineControl,
  type KillTarget,
  type PhaseResult,
  type ProcessControl,
} from '@memory/drill';
import { drawNumbered, TEST_KEYS, unusedPort, writePdf, type ServiceProcess } from '@memory/testing';
import { UsageError } from './args.js';
import { launchDistributed } from './distributed-service.js';
import { DRILL_USAGE, parseDrillArgs } from './drill-args.js';
import { processTree } from './process-tree.js';
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

/** The launcher's children, found by their entry point (and, for a stage worker, MEMORY_STAGES) in /proc. */
function processOf(launcher: ServiceProcess, name: string): number | null {
  for (const pid of processTree(launcher.pid ?? -1).slice(1)) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      const entry = args.find((arg) => arg.endsWith('/src/main.ts')) ?? '';
      const app = /apps\/([^/]+)\/src\/main\.ts$/.exec(entry)?.[1];
      if (app === name && (app === 'edge' || app === 'search')) return pid;
      if (app !== 'stage-worker') continue;
      const stages = /(?:^|\0)MEMORY_STAGES=([^\0]*)/.exec(readFileSync(`/proc/${pid}/environ`, 'utf8'))?.[1];
      if (stages === name) return pid;
    } catch {
      // Gone between the listing and the read.
    }
  }
  return null;
}

/** kill -9 by pid; the restart is seen in the supervisor's output, as one more ready line of that process. */
function processControl(launcher: ServiceProcess): ProcessControl {
  const readyLines = (name: string) => launcher.logs().split('\n').filter((line) => line.startsWith(`[${name}] `) && / ready on /.test(line)).length;
  const before = new Map<string, number>();
  return {
    async kill(target) {
      const name = PROCESS_NAMES[target];
      const pid = processOf(launcher, name);
      if (pid === null) throw new Error(`no running ${name} process under the launcher (pid ${launcher.pid})`);
      before.set(name, readyLines(name));
      process.kill(pid, 'SIGKILL');
      return { pid };
    },
    async awaitRestart(target) {
      const name = PROCESS_NAMES[target];
      const deadline = Date.now() + 180_000;
      while (readyLines(name) <= (before.get(name) ?? 0)) {
        if (Date.now() > deadline) throw new Error(`${name} was not running again 180 s after the kill`);
        await sleep(100);
      }
    },
  };
}

/** npm run drill: outage drills (--engine) and crash drills (--kill) against the distributed mode; exit 1 unless all pass. */
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
  const [edgePort, searchPort] = [await unusedPort(), await unusedPort()];
  const deployment = await launchDistributed(print, { ...engines, PORT: String(edgePort), MEMORY_SEARCH_PORT: String(searchPort) });
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
