import { errors } from '@elastic/elasticsearch';
import { MemoryServiceError, timeStep } from '@memory/platform';

/** The code family of the port, the same as its embedded adapter's: VECTORS (memories, centroids), JOBS, IDEMPOTENCY, KEYS or WEBHOOK. */
export type Family = 'VECTORS' | 'JOBS' | 'IDEMPOTENCY' | 'KEYS' | 'WEBHOOK';

interface Mapped {
  code: string;
  retriable: boolean;
}

/** What Elasticsearch answered: an HTTP status and, for an error, the exception type and reason in its body. */
export interface EngineFailure {
  status: number;
  type?: string;
  reason?: string;
}

/** Exception types whose meaning does not follow from the status alone. */
const BY_TYPE: Record<string, Mapped> = {
  index_not_found_exception: { code: 'NO_INDEX', retriable: false },
  version_conflict_engine_exception: { code: 'CONFLICT', retriable: true },
  // Writes refused while the disk is past the flood-stage watermark; the block lifts itself once space frees up.
  cluster_block_exception: { code: 'UNAVAILABLE', retriable: true },
  security_exception: { code: 'UNAUTHORIZED', retriable: false },
  es_rejected_execution_exception: { code: 'UNAVAILABLE', retriable: true },
  circuit_breaking_exception: { code: 'UNAVAILABLE', retriable: true },
};

function byStatus(status: number): Mapped {
  // 408: a wait (for a refresh, for shards) ran out; 429: queues or memory full; 5xx: the node or cluster failed.
  if (status === 408 || status === 429 || status >= 500) return { code: 'UNAVAILABLE', retriable: true };
  if (status === 401 || status === 403) return { code: 'UNAUTHORIZED', retriable: false };
  if (status === 404) return { code: 'NO_INDEX', retriable: false };
  // Any other 4xx is a request Elasticsearch understood and refused (a mapping or parsing error): sending it again
  // will not help.
  return { code: 'REJECTED', retriable: false };
}

export function mapFailure(failure: EngineFailure): Mapped {
  const typed = failure.type ? BY_TYPE[failure.type] : undefined;
  if (failure.type === 'cluster_block_exception' && /disk|read.only/i.test(failure.reason ?? '')) return { code: 'DISK_FULL', retriable: true };
  return typed ?? byStatus(failure.status);
}

/** A failure Elasticsearch reported (a whole response or one bulk item) as our error. */
export function failureError(family: Family, what: string, failure: EngineFailure, cause?: unknown): MemoryServiceError {
  const { code, retriable } = mapFailure(failure);
  const detail = [failure.type, failure.reason].filter(Boolean).join(': ') || `HTTP ${failure.status}`;
  return new MemoryServiceError(`${family}.${code}`, `${what}: ${detail}`, {
    retriable,
    cause,
    details: { status: failure.status, ...(failure.type ? { type: failure.type } : {}) },
  });
}

/**
 * The documents of an mget, each found or not found. A document Elasticsearch could not read (its shard not yet
 * allocated after a restart: no_shard_available_action_exception) fails the whole read as retriable rather than
 * reading as absent: a data key read as absent is a forgotten subject, whose record a stage skips for good (an
 * Elasticsearch outage drill lost a memory that way).
 */
export function readableDocs<D extends object>(family: Family, what: string, docs: D[]): D[] {
  for (const doc of docs) {
    const error = 'error' in doc ? (doc.error as { type?: string; reason?: string } | undefined) : undefined;
    if (error) throw failureError(family, what, { status: 503, ...(error.type ? { type: error.type } : {}), ...(error.reason ? { reason: error.reason } : {}) });
  }
  return docs;
}

/**
 * Maps whatever the client threw to our errors, so retry loops know what is worth retrying (no connection, time-outs,
 * 429 and 5xx) and callers never see the client's types.
 */
export function engineError(family: Family, what: string, error: unknown): MemoryServiceError {
  if (error instanceof MemoryServiceError) return error;
  if (error instanceof errors.ResponseError) {
    const body = error.meta.body as { error?: { type?: string; reason?: string } | string } | undefined;
    const cause = typeof body?.error === 'object' ? body.error : undefined;
    return failureError(family, what, { status: error.meta.statusCode ?? 0, type: cause?.type, reason: cause?.reason ?? error.message }, error);
  }
  const message = error instanceof Error ? error.message : String(error);
  const unreachable =
    error instanceof errors.ConnectionError ||
    error instanceof errors.NoLivingConnectionsError ||
    error instanceof errors.TimeoutError ||
    error instanceof errors.DeserializationError;
  if (unreachable) return new MemoryServiceError(`${family}.UNAVAILABLE`, `${what}: ${message}`, { retriable: true, cause: error });
  if (error instanceof errors.ProductNotSupportedError || error instanceof errors.ConfigurationError) {
    return new MemoryServiceError(`${family}.REJECTED`, `${what}: ${message}`, { cause: error });
  }
  return new MemoryServiceError(`${family}.FAILED`, `${what}: ${message}`, { retriable: true, cause: error });
}

/**
 * Runs one engine call (one HTTP request), mapping its failure. Each is a step `elasticsearch` of the unit of work
 * being timed, so a search's breakdown counts its round trips.
 */
export async function call<T>(family: Family, what: string, task: () => Promise<T>): Promise<T> {
  try {
    return await timeStep('elasticsearch', task);
  } catch (error) {
    throw engineError(family, what, error);
  }
}
