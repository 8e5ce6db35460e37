import { MemoryServiceError } from '@memory/platform';

// Errors the filesystem may stop giving once load drops or space is freed; the rest need an operator.
const TRANSIENT = new Set(['ENOSPC', 'EDQUOT', 'EMFILE', 'ENFILE', 'EAGAIN', 'EBUSY', 'EINTR', 'EIO']);

export function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}

/** Maps a Node filesystem error to our error, keeping it as the cause. */
export function mapFsError(error: unknown, what: string): MemoryServiceError {
  if (error instanceof MemoryServiceError) return error;
  const code = String((error as { code?: unknown } | null)?.code ?? 'UNKNOWN');
  const message = error instanceof Error ? error.message : String(error);
  return new MemoryServiceError(code === 'ENOSPC' || code === 'EDQUOT' ? 'BLOB.NO_SPACE' : 'BLOB.IO', `${what}: ${message}`, {
    retriable: TRANSIENT.has(code),
    cause: error,
    details: { fsCode: code },
  });
}

/** The caller's stream failed (its client went away, say): not ours to retry, since the stream is spent. */
export function sourceFailed(error: unknown, key: string): MemoryServiceError {
  if (error instanceof MemoryServiceError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new MemoryServiceError('BLOB.SOURCE_FAILED', `reading the body of blob ${key} failed: ${message}`, { cause: error });
}
