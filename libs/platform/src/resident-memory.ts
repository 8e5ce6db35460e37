import { readFileSync } from 'node:fs';

/** Resident memory of a process in MB (VmRSS from /proc); null where /proc is not there or the process is gone. */
export function residentMb(pid: number | null): number | null {
  return procMb(pid, 'status', /^VmRSS:\s+(\d+)\s+kB/m);
}

/**
 * Proportional set size of a process in MB (Pss from /proc/<pid>/smaps_rollup): its resident memory with each page
 * it shares with other processes (the Node binary, shared libraries) divided among them, so that a sum over several
 * processes counts a shared page once, where a sum of their RSS counts it once per process.
 */
export function proportionalMb(pid: number | null): number | null {
  return procMb(pid, 'smaps_rollup', /^Pss:\s+(\d+)\s+kB/m);
}

/**
 * Anonymous memory of a process in MB (Anonymous from smaps_rollup): its heaps, stacks and native allocations, the
 * part of its resident memory that is its own. The rest is file pages it maps (the Node binary, shared libraries, an
 * LMDB file it reads), which the kernel may drop and read again.
 */
export function anonymousMb(pid: number | null): number | null {
  return procMb(pid, 'smaps_rollup', /^Anonymous:\s+(\d+)\s+kB/m);
}

/** The kB figure `line` captures in /proc/<pid>/<file>, in MB. */
function procMb(pid: number | null, file: string, line: RegExp): number | null {
  if (pid === null) return null;
  try {
    const match = line.exec(readFileSync(`/proc/${pid}/${file}`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}
