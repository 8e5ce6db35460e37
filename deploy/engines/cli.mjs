#!/usr/bin/env node
// Installs, starts, stops and reports the local engines of the distributed mode, without Docker.
//
//   node deploy/engines/cli.mjs up [engine ...]        install if needed, start, wait until ready
//   node deploy/engines/cli.mjs down [--wipe] [engine ...]   stop (and with --wipe delete their data)
//   node deploy/engines/cli.mjs status [engine ...]    running? ready? where?
//   node deploy/engines/cli.mjs install [engine ...]   download/build only (CI caches this)
//   node deploy/engines/cli.mjs env [engine ...]       the variables the apps read, as KEY=value lines
//
// Engines default to MEMORY_ENGINES (comma-separated) or all of them. Each engine is a module in this folder
// (see ENGINES below and support/engine.mjs for the shape); everything lives under .engines/.
import { engineDirs } from './support/layout.mjs';
import { isAlive, readPid, startDetached, stopProcess } from './support/processes.mjs';
import { waitUntil } from './support/waiting.mjs';
import { rmSync } from 'node:fs';

const ENGINES = ['kafka', 'registry', 'elasticsearch', 'minio'];

async function load(name) {
  if (!ENGINES.includes(name)) throw new Error(`unknown engine "${name}"; known: ${ENGINES.join(', ')}`);
  const module = await import(`./${name}.mjs`);
  const engine = module.default;
  const dirs = engineDirs(engine.name);
  const log = (line) => console.log(`${engine.name}: ${line}`);
  return { engine, ctx: { dirs, log } };
}

function selected(names) {
  if (names.length > 0) return names;
  const fromEnv = process.env.MEMORY_ENGINES?.split(',').map((name) => name.trim()).filter(Boolean);
  return fromEnv?.length ? fromEnv : ENGINES;
}

async function install({ engine, ctx }) {
  const started = Date.now();
  await engine.install(ctx);
  ctx.log(`installed (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

async function up(loaded) {
  const { engine, ctx } = loaded;
  if (isAlive(readPid(ctx.dirs.pidFile)) && (await engine.ready(ctx))) {
    ctx.log('already running');
    return;
  }
  await install(loaded);
  const launch = await engine.launch(ctx);
  const pid = startDetached({ ...launch, pidFile: ctx.dirs.pidFile, logFile: ctx.dirs.logFile });
  ctx.log(`started (pid ${pid}, log ${ctx.dirs.logFile}); waiting until ready`);
  const started = Date.now();
  try {
    await waitUntil(() => engine.ready(ctx), {
      label: engine.name,
      timeoutMs: engine.readyTimeoutMs,
      stillRunning: () => isAlive(pid),
    });
  } catch (error) {
    throw new Error(`${error.message}; see the last lines of ${ctx.dirs.logFile}`);
  }
  ctx.log(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${describeEndpoints(engine)}`);
}

async function down({ engine, ctx }, wipe) {
  const how = await stopProcess(ctx.dirs.pidFile, { graceMs: engine.stopGraceMs ?? 30_000 });
  ctx.log(how);
  if (wipe) {
    rmSync(ctx.dirs.data, { recursive: true, force: true });
    ctx.log(`data removed (${ctx.dirs.data})`);
  }
}

async function status({ engine, ctx }) {
  const pid = readPid(ctx.dirs.pidFile);
  const alive = isAlive(pid);
  const ready = alive && (await engine.ready(ctx));
  const state = ready ? 'ready' : alive ? 'running, not ready' : 'stopped';
  console.log(`${engine.name.padEnd(14)} ${state.padEnd(20)} ${alive ? `pid ${pid}` : ''}  ${describeEndpoints(engine)}`);
  return ready;
}

function describeEndpoints(engine) {
  return Object.entries(engine.endpoints)
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');
}

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  const wipe = rest.includes('--wipe');
  const names = selected(rest.filter((arg) => !arg.startsWith('--')));
  const engines = [];
  for (const name of names) engines.push(await load(name));

  switch (command) {
    case 'install':
      for (const engine of engines) await install(engine);
      return 0;
    case 'up':
      for (const engine of engines) await up(engine);
      return 0;
    case 'down':
      for (const engine of [...engines].reverse()) await down(engine, wipe);
      return 0;
    case 'status': {
      let allReady = true;
      for (const engine of engines) allReady = (await status(engine)) && allReady;
      return allReady ? 0 : 3;
    }
    case 'env':
      for (const { engine } of engines) for (const [key, value] of Object.entries(engine.endpoints)) console.log(`${key}=${value}`);
      return 0;
    default:
      console.error('usage: node deploy/engines/cli.mjs up|down [--wipe]|status|install|env [engine ...]');
      return 2;
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`engines: ${error.message}`);
    process.exit(1);
  },
);
