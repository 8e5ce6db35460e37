import {
  InferenceClientHubApiError,
  InferenceClientInputError,
  InferenceClientProviderApiError,
  InferenceClientProviderOutputError,
  InferenceClientRoutingError,
} from '@huggingface/inference';
import { MemoryServiceError } from '@memory/platform';

interface Mapped {
  code: string;
  retriable: boolean;
}

/** HTTP statuses whose meaning we know; other 4xx are rejections, other 5xx are outages. */
const BY_STATUS: Record<number, Mapped> = {
  400: { code: 'EMBEDDER.REJECTED', retriable: false },
  401: { code: 'EMBEDDER.UNAUTHORIZED', retriable: false },
  403: { code: 'EMBEDDER.UNAUTHORIZED', retriable: false },
  404: { code: 'EMBEDDER.MODEL_NOT_FOUND', retriable: false },
  408: { code: 'EMBEDDER.TIMEOUT', retriable: true },
  413: { code: 'EMBEDDER.REJECTED', retriable: false },
  425: { code: 'EMBEDDER.UNAVAILABLE', retriable: true },
  429: { code: 'EMBEDDER.RATE_LIMITED', retriable: true },
  // 503 is also what a scaled-to-zero model answers while it loads.
  503: { code: 'EMBEDDER.UNAVAILABLE', retriable: true },
};

function byStatus(status: number): Mapped {
  return BY_STATUS[status] ?? (status >= 500 ? { code: 'EMBEDDER.UNAVAILABLE', retriable: true } : { code: 'EMBEDDER.REJECTED', retriable: false });
}

/**
 * Maps what @huggingface/inference and fetch throw to our errors, so retry loops know what is worth retrying and
 * callers never see the SDK's types.
 */
export function mapHostedError(error: unknown): MemoryServiceError {
  if (error instanceof MemoryServiceError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const wrap = ({ code, retriable }: Mapped, details?: Record<string, unknown>) =>
    new MemoryServiceError(code, `hosted embedder: ${message}`, { retriable, cause: error, ...(details ? { details } : {}) });

  if (error instanceof InferenceClientProviderApiError || error instanceof InferenceClientHubApiError) {
    const status = error.httpResponse.status;
    return wrap(byStatus(status), { status, requestId: error.httpResponse.requestId });
  }
  if (error instanceof InferenceClientProviderOutputError) return wrap({ code: 'EMBEDDER.BAD_RESPONSE', retriable: false });
  if (error instanceof InferenceClientRoutingError) return wrap({ code: 'EMBEDDER.ROUTING', retriable: false });
  if (error instanceof InferenceClientInputError) return wrap({ code: 'EMBEDDER.REJECTED', retriable: false });
  // AbortSignal.timeout rejects with a DOMException named TimeoutError; an abort from close() is AbortError.
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError') return wrap({ code: 'EMBEDDER.TIMEOUT', retriable: true });
  if (name === 'AbortError') return wrap({ code: 'EMBEDDER.CLOSED', retriable: false });
  // undici reports connection failures (DNS, refused, reset) as TypeError("fetch failed").
  if (error instanceof TypeError) return wrap({ code: 'EMBEDDER.UNAVAILABLE', retriable: true });
  return wrap({ code: 'EMBEDDER.FAILED', retriable: true });
}
