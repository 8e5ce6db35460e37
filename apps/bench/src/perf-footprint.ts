import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { residentMb } from '@memory/platform';
import { processTree } from './process-tree.js';

/** What the service occupies: resident memory of its processes, and bytes on disk with what they cover. */
export interface Footprint {
  rssMb: number | null;
  diskBytes: number | null;
  disk: string;
}

/** Resident memory of a process and all its descendants (the distributed launcher and its stage processes). */
export function treeResidentMb(pid: number | null): number | null {
  if (pid === null) return null;
  return processTree(pid).reduce((total, member) => total + (residentMb(member) ?? 0), 0);
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

/** Store size of the Elasticsearch indices matching `pattern` (primaries and replicas), from the index stats API. */
export async function elasticsearchStoreBytes(url: string, pattern: string): Promise<number | null> {
  try {
    await fetch(new URL(`/${pattern}/_refresh`, url), { method: 'POST' });
    const res = await fetch(new URL(`/${pattern}/_stats/store`, url));
    if (!res.ok) return null;
    const stats = (await res.json()) as { _all?: { total?: { store?: { size_in_bytes?: number } } } };
    return stats._all?.total?.store?.size_in_bytes ?? null;
  } catch {
    return null;
  }
}
