import { MemoryServiceError } from '@memory/platform';

interface Mapped {
  code: string;
  retriable: boolean;
}

/**
 * Confluent's error_code values whose meaning we know (the REST API reference's error list). The HTTP status alone
 * is not enough: 404 is also what any web server answers for a wrong base URL, and 422 covers several mistakes.
 */
const BY_ERROR_CODE: Record<number, Mapped> = {
  40401: { code: 'REGISTRY.NOT_FOUND', retriable: false }, // subject
  40402: { code: 'REGISTRY.NOT_FOUND', retriable: false }, // version
  40403: { code: 'REGISTRY.NOT_FOUND', retriable: false }, // schema id
  40404: { code: 'REGISTRY.NOT_FOUND', retriable: false }, // subject soft-deleted
  40406: { code: 'REGISTRY.NOT_FOUND', retriable: false }, // version soft-deleted
  40408: { code: 'REGISTRY.NOT_FOUND', retriable: false }, // no subject-level compatibility
  409: { code: 'REGISTRY.INCOMPATIBLE', retriable: false },
  42201: { code: 'REGISTRY.INVALID_SCHEMA', retriable: false },
  42202: { code: 'REGISTRY.INVALID_VERSION', retriable: false },
  42203: { code: 'REGISTRY.INVALID_COMPATIBILITY', retriable: false },
  // Store errors, timeouts and failed forwarding to the leader: the registry itself says to try again.
  50001: { code: 'REGISTRY.UNAVAILABLE', retriable: true },
  50002: { code: 'REGISTRY.UNAVAILABLE', retriable: true },
  50003: { code: 'REGISTRY.UNAVAILABLE', retriable: true },
};

/** What a registry answered to one request that did not succeed. */
export interface FailedResponse {
  status: number;
  /** The parsed JSON body, when there was one. */
  body: unknown;
}

/** Maps a non-2xx answer to our error: 5xx, 408 and 429 are worth retrying, other 4xx are not. */
export function mapRegistryResponse(response: FailedResponse, what: string): MemoryServiceError {
  const { status } = response;
  const body = (response.body ?? {}) as { error_code?: unknown; message?: unknown };
  const errorCode = typeof body.error_code === 'number' ? body.error_code : undefined;
  const message = typeof body.message === 'string' ? body.message : `HTTP ${status}`;
  const details: Record<string, unknown> = { status, ...(errorCode === undefined ? {} : { errorCode }) };
  const wrap = ({ code, retriable }: Mapped, text = message) => new MemoryServiceError(code, `${what}: ${text}`, { retriable, details });

  const known = errorCode === undefined ? undefined : BY_ERROR_CODE[errorCode];
  if (known) return wrap(known);
  if (status === 409) return wrap(BY_ERROR_CODE[409]!);
  if (status >= 500 || status === 408 || status === 429) return wrap({ code: 'REGISTRY.UNAVAILABLE', retriable: true });
  if (status === 401 || status === 403) return wrap({ code: 'REGISTRY.UNAUTHORIZED', retriable: false });
  if (status === 404 && errorCode === undefined) {
    // A registry says which thing is missing; a bare 404 means the URL leads somewhere that is not one.
    return wrap({ code: 'REGISTRY.BAD_RESPONSE', retriable: false }, `HTTP 404 without a registry error code; is the registry URL right (for Apicurio it ends in /apis/ccompat/v7)?`);
  }
  if (status === 404) return wrap({ code: 'REGISTRY.NOT_FOUND', retriable: false });
  return wrap({ code: 'REGISTRY.REJECTED', retriable: false });
}

/** Maps a failure to get any answer at all: refused connections, resets and timeouts are retriable. */
export function mapTransportError(error: unknown, what: string): MemoryServiceError {
  if (error instanceof MemoryServiceError) return error;
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError') return new MemoryServiceError('REGISTRY.UNAVAILABLE', `${what}: no answer in time`, { retriable: true, cause: error });
  // fetch wraps the socket error as its cause; look one level down for the code.
  const cause = (error as { cause?: unknown } | null)?.cause;
  const networkCode = [error, cause].map((e) => (e as { code?: unknown } | null)?.code).find((code): code is string => typeof code === 'string');
  const message = cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error);
  // Refused, reset, unreachable or anything else below HTTP: the registry may be back in a moment.
  return new MemoryServiceError('REGISTRY.UNAVAILABLE', `${what}: ${message}`, { retriable: true, cause: error, ...(networkCode ? { details: { networkCode } } : {}) });
}
