import { MemoryServiceError } from '@memory/platform';

/** LMDB failures by meaning: a full disk or map will not heal by retrying; other I/O hiccups may. */
const permanent: Array<[RegExp, string]> = [
  [/MDB_MAP_FULL|ENOSPC/, 'DISK_FULL'],
  [/EACCES|EPERM|EROFS/, 'NO_ACCESS'],
  [/MDB_INVALID|MDB_CORRUPTED|MDB_VERSION_MISMATCH/, 'CORRUPT'],
];

/** An LMDB failure as our error, coded in the family of the port it served (JOBS, IDEMPOTENCY). */
export function storageError(family: string, store: string, operation: string, cause: unknown): MemoryServiceError {
  const message = cause instanceof Error ? cause.message : String(cause);
  for (const [pattern, code] of permanent) {
    if (pattern.test(message)) return new MemoryServiceError(`${family}.${code}`, `${store} ${operation} failed: ${message}`, { cause });
  }
  return new MemoryServiceError(`${family}.STORAGE`, `${store} ${operation} failed: ${message}`, { retriable: true, cause });
}
