import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { readMetric } from '@memory/drill';
import { anonymousMb, cpuTimeMs, processTree, proportionalMb, residentMb } from '@memory/platform';
import { processName } from './process-tree.js';

/**
 * What the service occupies: memory of its processes, and bytes on disk with what they cover. The memory twice: the
 * sum of their resident sizes, which counts a page several processes share (the Node binary, shared libraries) once
 * per process, and the sum of their proportional sizes, which counts it once: what they take together.
 */
export interface Footprint {
  rssMb: number | null;
  pssMb: number | null;
  diskBytes: number | null;
  disk: string;
  /** The same per process of the service, to see which one grows with the memories; empty where not measured. */
  processes: ProcessFootprint[];
}

/** One process's memory: resident, proportional, and the anonymous part of it (its own heaps, not mapped files). */
export interface ProcessFootprint {
  name: string;
  rssMb: number | null;
  pssMb: number | null;
  anonymousMb: number | null;
}

/**
 * A process tree's memory (the distributed launcher and its children), read once per process: the sums of their
 * resident and proportional sizes (their memory together, shared pages counted once), and each of them.
 */
export function treeMemory(pid: number | null): Pick<Footprint, 'rssMb' | 'pssMb' | 'processes'> {
  if (pid === null) return { rssMb: null, pssMb: null, processes: [] };
  const processes = treeFootprints(pid);
  const sum = (read: (one: ProcessFootprint) => number | null) => processes.reduce((total, one) => total + (read(one) ?? 0), 0);
  return { rssMb: sum((one) => one.rssMb), pssMb: sum((one) => one.pssMb), processes };
}

/** Each process of a tree (the embedded service and its file workers, the distributed launcher and its children). */
export function treeFootprints(pid: number | null): ProcessFootprint[] {
  if (pid === null) return [];
  return processTree(pid).flatMap((member) => {
    const name = processName(member);
    return name === null ? [] : [{ name, rssMb: residentMb(member), pssMb: proportionalMb(member), anonymousMb: anonymousMb(member) }];
  });
}

/** CPU a process tree spends a second while nothing is asked of it, in all and per process. */
export interface IdleCpu {
  msPerS: number;
  processes: Array<{ name: string; msPerS: number }>;
}

/**
 * The CPU a service's processes use over `seconds` while no request comes: timers, pollers and consumers waiting for
 * records, the cost the service has on a box before it does any work (an idle stack once spent 136 ms a second in
 * kafkajs's timers). Null where the service's processes cannot be read.
 */
export async function idleCpu(pid: number | null, seconds: number): Promise<IdleCpu | null> {
  if (pid === null) return null;
  const members = processTree(pid);
  const before = new Map(members.map((member) => [member, cpuTimeMs(member)]));
  await sleep(seconds * 1000);
  const processes = members.flatMap((member) => {
    const [start, end, name] = [before.get(member), cpuTimeMs(member), processName(member)];
    return start == null || end === null || name === null ? [] : [{ name, msPerS: (end - start) / seconds }];
  });
  return { msPerS: processes.reduce((total, one) => total + one.msPerS, 0), processes };
}

/** Resident memory of a process and all its descendants (the distributed launcher and its stage processes). */
export function treeResidentMb(pid: number | null): number | null {
  return treeSum(pid, residentMb);
}


function treeSum(pid: number | null, read: (pid: number) => number | null): number | null {
  if (pid === null) return null;
  return processTree(pid).reduce((total, member) => total + (read(member) ?? 0), 0);
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

/** memory_heap_live_bytes, and how many full collections the process had made when it was read. */
export interface LiveHeap {
  mb: number;
  fullCollections: number;
}

export async function liveHeap(url: string): Promise<LiveHeap | null> {
  const [bytes, fullCollections] = await Promise.all([readMetric(url, 'memory_heap_live_bytes'), readMetric(url, 'nodejs_gc_duration_seconds_count', { kind: 'major' })]);
  return bytes > 0 ? { mb: bytes / 2 ** 20, fullCollections } : null;
}

/** V8 collects in full within seconds once the allocation rate falls (its memory reducer); this waits for that. */
const FULL_COLLECTION_WAIT_MS = 60_000;

/** The live heap after the next full collection from now, or null when none came in FULL_COLLECTION_WAIT_MS. */
export async function nextFullCollection(url: string): Promise<LiveHeap | null> {
  const seen = (await liveHeap(url))?.fullCollections ?? 0;
  const deadline = Date.now() + FULL_COLLECTION_WAIT_MS;
  for (;;) {
    const heap = await liveHeap(url);
    if (heap && heap.fullCollections > seen) return heap;
    if (Date.now() > deadline) return null;
    await sleep(1_000);
  }
}
