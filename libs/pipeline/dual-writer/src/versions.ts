import type { MemoryEnriched } from '@memory/contracts';
import { versionsOf, type MemoryVersion, type StoredMemory } from '@memory/ports';

/** What the dual-writer writes for one enriched memory, given what the store holds: a version, or nothing. */
export type VersionDecision =
  | { write: true; version: number; versions: MemoryVersion[] }
  /** The store holds a later version already (a replay over a live store): this older one is not written back. */
  | { write: false; version: number };

/**
 * Numbers a memory's versions in log order, at write time: two updates accepted before either is applied both
 * find the version the other wrote. A job writes one version, once: redelivered or replayed, it finds its own
 * entry in the history and gets the same number, and it never overwrites a later version.
 */
export function nextVersion(current: StoredMemory | null, e: MemoryEnriched): VersionDecision {
  const change: Omit<MemoryVersion, 'version'> = { jobId: e.jobId, content: e.content, changedAt: e.acceptedAt, cause: e.cause ?? 'ingest' };
  if (current === null) return { write: true, version: 1, versions: [{ version: 1, ...change }] };
  const history = versionsOf(current);
  const own = history.find((entry) => entry.jobId === e.jobId);
  if (own) {
    if ((current.version ?? 1) > own.version) return { write: false, version: own.version };
    return { write: true, version: own.version, versions: history.map((entry) => (entry === own ? { ...entry, ...change } : entry)) };
  }
  const version = Math.max(...history.map((entry) => entry.version)) + 1;
  return { write: true, version, versions: [...history, { version, ...change }] };
}
