import { readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';

/** A process and all its descendants, from /proc (the distributed launcher and its stage processes); [pid] without /proc. */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const parent = Number(statFields(Number(entry))[1]);
        children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
      } catch {
        // Gone between the listing and the read.
      }
    }
  } catch {
    return [pid];
  }
  const tree: number[] = [];
  const pending = [pid];
  while (pending.length > 0) {
    const next = pending.pop()!;
    tree.push(next);
    pending.push(...(children.get(next) ?? []));
  }
  return tree;
}

/** SIGKILL to a process and its descendants, children first seen before the parent dies. */
export function killTree(pid: number): void {
  for (const member of processTree(pid).reverse()) {
    try {
      process.kill(member, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/** Linux reports CPU time in USER_HZ ticks, 100 a second on every architecture's user ABI. */
const TICK_MS = 10;

/** CPU time a process has used so far, user and system, in ms (from /proc/<pid>/stat); null when it is gone. */
export function cpuTimeMs(pid: number): number | null {
  try {
    // utime and stime, the 14th and 15th fields of the line.
    const fields = statFields(pid);
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
}

/**
 * The fields of /proc/<pid>/stat after the parenthesised command name (which may hold spaces): the state first
 * (the 3rd field of the line), the parent pid second. Throws when the process is gone.
 */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/**
 * What a process of the service is, for a reader of the bench: its script's name (`edge`, `search`, `stage-worker`,
 * the launcher's `start-distributed`), with the stages a stage worker runs (MEMORY_STAGES in its environment), or the
 * command's name for anything else; null when the process is gone.
 */
export function processName(pid: number): string | null {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    const script = args.slice(1).find((arg) => /\.(c|m)?(j|t)s$/.test(arg));
    const name = script ? basename(script).replace(/\.(c|m)?(j|t)s$/, '') : basename(args[0] ?? '?');
    const stages = environmentOf(pid).MEMORY_STAGES;
    return stages ? `${name} (${stages.split(',').join(', ')})` : name;
  } catch {
    return null;
  }
}

function environmentOf(pid: number): Record<string, string> {
  try {
    return Object.fromEntries(
      readFileSync(`/proc/${pid}/environ`, 'utf8')
        .split('\0')
        .filter((entry) => entry.includes('='))
        .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
    );
  } catch {
    return {};
  }
}
