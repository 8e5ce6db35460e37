import { InvalidObjectNameError, S3Error } from 'minio';
import { MemoryServiceError } from '@memory/platform';

interface Mapped {
  code: string;
  retriable: boolean;
}

/** S3 error codes whose meaning we know; see the S3 API reference's error code list. */
const BY_S3_CODE: Record<string, Mapped> = {
  NoSuchKey: { code: 'BLOB.NOT_FOUND', retriable: false },
  // What a HEAD of a missing object answers: HEAD responses have no body to carry NoSuchKey.
  NotFound: { code: 'BLOB.NOT_FOUND', retriable: false },
  NoSuchBucket: { code: 'BLOB.NO_BUCKET', retriable: false },
  AccessDenied: { code: 'BLOB.UNAUTHORIZED', retriable: false },
  InvalidAccessKeyId: { code: 'BLOB.UNAUTHORIZED', retriable: false },
  SignatureDoesNotMatch: { code: 'BLOB.UNAUTHORIZED', retriable: false },
  ExpiredToken: { code: 'BLOB.UNAUTHORIZED', retriable: false },
  InvalidToken: { code: 'BLOB.UNAUTHORIZED', retriable: false },
  EntityTooLarge: { code: 'BLOB.TOO_LARGE', retriable: false },
  KeyTooLongError: { code: 'BLOB.INVALID_KEY', retriable: false },
  XMinioInvalidObjectName: { code: 'BLOB.INVALID_KEY', retriable: false },
  XMinioStorageFull: { code: 'BLOB.NO_SPACE', retriable: true },
  SlowDown: { code: 'BLOB.UNAVAILABLE', retriable: true },
  ServiceUnavailable: { code: 'BLOB.UNAVAILABLE', retriable: true },
  InternalError: { code: 'BLOB.UNAVAILABLE', retriable: true },
  RequestTimeout: { code: 'BLOB.UNAVAILABLE', retriable: true },
  OperationTimedOut: { code: 'BLOB.UNAVAILABLE', retriable: true },
  XMinioServerNotInitialized: { code: 'BLOB.UNAVAILABLE', retriable: true },
  XMinioReadQuorum: { code: 'BLOB.UNAVAILABLE', retriable: true },
  XMinioWriteQuorum: { code: 'BLOB.UNAVAILABLE', retriable: true },
};

// Socket-level failures: the server is down, restarting or unreachable for now.
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED']);

// The client turns a 5xx, 408 or 429 answer into a plain Error carrying only the status in its message.
const RETRYABLE_STATUS = /Retryable HTTP status: (\d{3})/;

/**
 * Maps what the minio client throws to our errors, so retry loops know what is worth retrying (network failures
 * and 5xx) and callers never see the client's types.
 */
export function mapS3Error(error: unknown, what: string): MemoryServiceError {
  if (error instanceof MemoryServiceError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const wrap = ({ code, retriable }: Mapped, details: Record<string, unknown> = {}) =>
    new MemoryServiceError(code, `${what}: ${message}`, { retriable, cause: error, details });

  const errorCode = (error as { code?: unknown } | null)?.code;
  if (error instanceof S3Error) {
    const s3Code = typeof errorCode === 'string' ? errorCode : '';
    // A code we do not list is a request S3 understood and refused: sending it again will not help.
    return wrap(BY_S3_CODE[s3Code] ?? { code: 'BLOB.REJECTED', retriable: false }, { s3Code });
  }
  if (error instanceof InvalidObjectNameError) return wrap({ code: 'BLOB.INVALID_KEY', retriable: false });
  if (typeof errorCode === 'string' && NETWORK_CODES.has(errorCode)) return wrap({ code: 'BLOB.UNAVAILABLE', retriable: true }, { networkCode: errorCode });
  const status = RETRYABLE_STATUS.exec(message)?.[1];
  if (status) return wrap({ code: 'BLOB.UNAVAILABLE', retriable: true }, { status: Number(status) });
  return wrap({ code: 'BLOB.FAILED', retriable: true });
}
