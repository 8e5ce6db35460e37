import { readFileSync } from 'node:fs';
import { residentMb } from '@memory/platform';

/** What a process has used so far: CPU time of all its threads, and its resident memory now. */
export interface ProcessUsage {
  cpuMs: number;
  rssMb: number;
}

/** Linux reports CPU times in USER_HZ ticks, which the kernel fixes at 100 per second for user space. */
const MS_PER_TICK = 10;

/**
 * The usage of a process, from /proc (Linux). Null where there is no /proc, or the process is gone: the pool then
 * falls back to wall time and the V8 heap limit alone.
 */
export function processUsage(pid: number): ProcessUsage | null {
  const rssMb = residentMb(pid);
  if (rssMb === null) return null;
  try {
    return { cpuMs: cpuMsOf(readFileSync(`/proc/${pid}/stat`, 'utf8')), rssMb };
  } catch {
    return null;
  }
}

/** utime + stime of a /proc/<pid>/stat line; the command name in parentheses may itself hold spaces and parentheses. */
export function cpuMsOf(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of the line; the slice starts at field 3.
  return (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK;
}
