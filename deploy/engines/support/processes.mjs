// Starting an engine as a detached background process that outlives this script, and stopping it again.
import { spawn } from 'node:child_process';
import { existsSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { sleep } from './waiting.mjs';

export function readPid(pidFile) {
  if (!existsSync(pidFile)) return undefined;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

export function isAlive(pid) {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Spawns `command` in its own process group, output appended to `logFile`, and records its pid. */
export function startDetached({ command, args, env, cwd, pidFile, logFile }) {
  const out = openSync(logFile, 'a');
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', out, out],
  });
  child.unref();
  writeFileSync(pidFile, `${child.pid}\n`);
  return child.pid;
}

/** SIGTERM to the whole process group, then SIGKILL after `graceMs`. Resolves once the process is gone. */
export async function stopProcess(pidFile, { graceMs = 30_000 } = {}) {
  const pid = readPid(pidFile);
  if (!isAlive(pid)) {
    rmSync(pidFile, { force: true });
    return 'not running';
  }
  signalGroup(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (isAlive(pid) && Date.now() < deadline) await sleep(200);
  let how = 'stopped';
  if (isAlive(pid)) {
    signalGroup(pid, 'SIGKILL');
    while (isAlive(pid)) await sleep(100);
    how = `killed after ${graceMs} ms`;
  }
  rmSync(pidFile, { force: true });
  return how;
}

function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}
