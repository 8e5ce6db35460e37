import { existsSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { syncDirectory, syncFile } from './fsync.js';

/** The part of an LMDB environment (lmdb-js RootDatabase) a compaction needs. */
export interface CompactableEnv {
  backup(path: string, compact: boolean): Promise<void>;
  close(): Promise<void>;
}

const markerOf = (dir: string) => join(dir, 'compaction-pending');

/** Marks being written, so a second caller waits for the mark to be on disk rather than seeing a file not yet synced. */
const marking = new Map<string, Promise<void>>();

/**
 * LMDB copies pages on write and leaves freed pages as they were, so bytes of a deleted record stay in the file
 * until their page is reused. What was forgotten must not stay readable: a store about to delete something marks its
 * directory, and is compacted (copied with live pages only, the copy replacing the file) when it closes, or when it
 * next opens if the process died first. The mark is a file on disk (fsynced, with its directory entry) BEFORE the
 * deleting transaction commits: a crash after the commit then always finds it. A mark with nothing deleted after it
 * costs one needless compaction.
 */
export function markForCompaction(dir: string): Promise<void> {
  const inFlight = marking.get(dir);
  if (inFlight) return inFlight;
  if (existsSync(markerOf(dir))) return Promise.resolve();
  const mark = writeMarker(dir).finally(() => marking.delete(dir));
  marking.set(dir, mark);
  return mark;
}

async function writeMarker(dir: string): Promise<void> {
  const handle = await open(markerOf(dir), 'w');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  await syncDirectory(dir);
}

export function compactionPending(dir: string): boolean {
  return existsSync(markerOf(dir));
}

/** Closes the environment and replaces its file by a compacted copy; the environment must be reopened to be used. */
export async function compactAndClose(env: CompactableEnv, dir: string): Promise<void> {
  const copy = `${dir}.compacting`;
  await rm(copy, { recursive: true, force: true });
  await mkdir(copy);
  await env.backup(copy, true);
  await env.close();
  // LMDB writes the copy without an fsync: renamed over the store unsynced, a power cut could leave the store's file
  // empty or partial. The rename is on disk before the marker goes, so a crash in between only compacts again.
  await syncFile(join(copy, 'data.mdb'));
  await rename(join(copy, 'data.mdb'), join(dir, 'data.mdb'));
  await syncDirectory(dir);
  await rm(copy, { recursive: true, force: true });
  await rm(markerOf(dir), { force: true });
  await syncDirectory(dir);
}

/**
 * Closes a store's environment: compacted first when a deletion marked its directory (`dir` null: a store kept in
 * memory, never compacted); a failed compaction rejects with `compactionError` of its cause.
 */
export async function closeCompactingIfMarked(env: CompactableEnv, dir: string | null, compactionError: (cause: unknown) => Error): Promise<void> {
  if (dir !== null && compactionPending(dir)) await compactAndClose(env, dir).catch((error: unknown) => Promise.reject(compactionError(error)));
  else await env.close();
}

/** Compacts a store left marked by a process that died before closing it; `open` opens its environment. */
export async function finishPendingCompaction(dir: string, open: () => CompactableEnv): Promise<void> {
  await rm(`${dir}.compacting`, { recursive: true, force: true });
  if (compactionPending(dir)) await compactAndClose(open(), dir);
}
