import fs from 'node:fs/promises';
import { MemoryServiceError } from './errors.js';

/**
 * LMDB failures by meaning, and whether trying again can help. lmdb-js grows its map as the data grows, so a full
 * map is a full disk: that heals once space is freed, and the pipeline waits it out like an engine outage. Access and
 * corruption will not heal by retrying; other I/O hiccups may. lmdb-js words an errno as its strerror text (e.g.
 * "No space left on device"), Node's fs as its code: both are matched.
 */
const KNOWN: Array<[RegExp, string, boolean]> = [
  [/MDB_MAP_FULL|ENOSPC|EDQUOT|No space left on device|Disk quota exceeded/i, 'DISK_FULL', true],
  [/EACCES|EPERM|EROFS/, 'NO_ACCESS', false],
  [/MDB_INVALID|MDB_CORRUPTED|MDB_VERSION_MISMATCH/, 'CORRUPT', false],
];

/**
 * The one table of LMDB errors for every embedded store: `<PREFIX>.DISK_FULL` (retriable), `.NO_ACCESS`, `.CORRUPT`
 * (final) or `.STORAGE` (retriable), with a message naming the store and the operation.
 */
export function lmdbError(codePrefix: string, storeName: string, operation: string, cause: unknown): MemoryServiceError {
  const message = cause instanceof Error ? cause.message : String(cause);
  for (const [pattern, code, retriable] of KNOWN) {
    if (pattern.test(message)) return new MemoryServiceError(`${codePrefix}.${code}`, `${storeName} ${operation} failed: ${message}`, { retriable, cause });
  }
  return new MemoryServiceError(`${codePrefix}.STORAGE`, `${storeName} ${operation} failed: ${message}`, { retriable: true, cause });
}

/** How long a failed write waits for lmdb-js to report its cause before it is mapped without one. */
const COMMIT_CAUSE_WAIT_MS = 1_000;

/**
 * Below this much free space a failed write is taken for a full disk, whatever its error: LMDB reports a page write
 * that the full disk cut short as EIO ("Input/output error"), not ENOSPC.
 */
const NEARLY_FULL_BYTES = 1024 * 1024;

/**
 * lmdbError for a failed asynchronous lmdb-js write to the environment in `dir`. lmdb-js rejects every write of a
 * failed commit with a bare "Commit failed", the cause (ENOSPC, MDB_BAD_VALSIZE...) in the error's `commitError`
 * promise, so the table needs that cause; and a `commitError` nobody handles is an unhandled rejection
 * (kriszyp/lmdb-js#368), which would end the process: it is always handled here.
 */
export async function lmdbWriteError(codePrefix: string, storeName: string, operation: string, error: unknown, dir: string): Promise<MemoryServiceError> {
  const commitError = (error as { commitError?: unknown } | null)?.commitError;
  let cause = error;
  if (commitError instanceof Promise) {
    let timer: NodeJS.Timeout | undefined;
    // lmdb-js settles it in the same callback that fails the writes; the wait only keeps a failure from hanging on it.
    cause = await Promise.race([
      commitError.then(() => error, (reason: unknown) => reason),
      new Promise<unknown>((resolve) => (timer = setTimeout(resolve, COMMIT_CAUSE_WAIT_MS, error).unref())),
    ]);
    clearTimeout(timer);
  }
  const mapped = lmdbError(codePrefix, storeName, operation, cause);
  if (mapped.code !== `${codePrefix}.STORAGE`) return mapped;
  const free = await fs.statfs(dir).then((stats) => stats.bavail * stats.bsize, () => undefined);
  if (free === undefined || free >= NEARLY_FULL_BYTES) return mapped;
  return new MemoryServiceError(`${codePrefix}.DISK_FULL`, `${mapped.message} (the disk has ${free} bytes free)`, { retriable: true, cause });
}
