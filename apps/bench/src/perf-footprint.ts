import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

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

/**
 * Bytes a folder really occupies (allocated blocks, as du counts them), not the apparent sizes: LMDB files are
 * sparse maps whose apparent size is the map size, not the data.
 */
export function diskBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += diskBytes(path);
    else if (entry.isFile()) total += statSync(path).blocks * 512;
  }
  return total;
}
