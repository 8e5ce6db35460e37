import { MemoryServiceError } from './errors.js';

/** LMDB failures by meaning: a full disk or map will not heal by retrying; other I/O hiccups may. */
const PERMANENT: Array<[RegExp, string]> = [
  [/MDB_MAP_FULL|ENOSPC/, 'DISK_FULL'],
  [/EACCES|EPERM|EROFS/, 'NO_ACCESS'],
  [/MDB_INVALID|MDB_CORRUPTED|MDB_VERSION_MISMATCH/, 'CORRUPT'],
];

/**
 * The one table of LMDB errors for every embedded store: `<PREFIX>.DISK_FULL`, `.NO_ACCESS`, `.CORRUPT` (final) or
 * `.STORAGE` (retriable), with a message naming the store and the operation.
 */
export function lmdbError(codePrefix: string, storeName: string, operation: string, cause: unknown): MemoryServiceError {
  const message = cause instanceof Error ? cause.message : String(cause);
  for (const [pattern, code] of PERMANENT) {
    if (pattern.test(message)) return new MemoryServiceError(`${codePrefix}.${code}`, `${storeName} ${operation} failed: ${message}`, { cause });
  }
  return new MemoryServiceError(`${codePrefix}.STORAGE`, `${storeName} ${operation} failed: ${message}`, { retriable: true, cause });
}
