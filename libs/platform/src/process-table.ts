import { readdirSync, readFileSync } from 'node:fs';

/** A process and all its descendants, from /proc (a launcher and the processes it started); [pid] without /proc. */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const parent = Number(statFields(`/proc/${entry}`)[1]);
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

/** Linux reports CPU time in USER_HZ ticks, 100 a second on every architecture's user ABI. */
const TICK_MS = 10;

/** CPU time a process has used so far, user and system, in ms (from /proc/<pid>/stat); null when it is gone. */
export function cpuTimeMs(pid: number): number | null {
  try {
    // utime and stime, the 14th and 15th fields of the line.
    const fields = statFields(`/proc/${pid}`);
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return null;
  }
}

/**
 * The niceness of each thread of a process (Linux keeps one per thread: a process reniced from outside keeps the
 * threads it had at their old value), from /proc/<pid>/task; [] when it is gone.
 */
export function threadNiceness(pid: number): number[] {
  try {
    // The 19th field of the line.
    return readdirSync(`/proc/${pid}/task`).map((tid) => Number(statFields(`/proc/${pid}/task/${tid}`)[16]));
  } catch {
    return [];
  }
}

/**
 * When a process started, in clock ticks after boot (the 22nd field of /proc/<pid>/stat), as written there: with the
 * boot id it tells a process from a later one that was given the same pid. null when it is gone or there is no /proc.
 */
export function processStartTime(pid: number): string | null {
  try {
    return statFields(`/proc/${pid}`)[19] ?? null;
  } catch {
    return null;
  }
}

/** The id of this boot of the machine: start times count from boot, so they name a process only within one boot. */
export function bootId(): string | null {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/**
 * The fields of a process's or thread's stat line after the parenthesised command name (which may hold spaces): the
 * state first (the 3rd field of the line), the parent pid second. Throws when it is gone.
 */
function statFields(dir: string): string[] {
  const stat = readFileSync(`${dir}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}
