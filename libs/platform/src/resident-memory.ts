import { readFileSync } from 'node:fs';

/** Resident memory of a process in MB (VmRSS from /proc); null where /proc is not there or the process is gone. */
export function residentMb(pid: number | null): number | null {
  if (pid === null) return null;
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}
