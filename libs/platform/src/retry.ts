import { isRetriable } from './errors.js';

export interface RetryOptions {
  retries: number;
  initialDelayMs: number;
  maxDelayMs: number;
  factor: number;
  /** Called before each new attempt, e.g. to log or report progress. */
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
}

export const defaultRetryOptions: RetryOptions = {
  retries: Number(process.env['MEMORY_RETRIES'] ?? 4),
  initialDelayMs: Number(process.env['MEMORY_RETRY_INITIAL_MS'] ?? 200),
  maxDelayMs: 10_000,
  factor: 2,
};

export class RetriesExhaustedError extends Error {
  readonly attempts: number;
  constructor(attempts: number, cause: unknown) {
    super(`gave up after ${attempts} attempt(s): ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'RetriesExhaustedError';
    this.attempts = attempts;
  }
}

/** Full-jitter exponential backoff: a delay drawn from [0, min(max, initial * factor^attempt)]. */
export function backoffDelay(attempt: number, opts: Pick<RetryOptions, 'initialDelayMs' | 'maxDelayMs' | 'factor'>, random = Math.random): number {
  const ceiling = Math.min(opts.maxDelayMs, opts.initialDelayMs * opts.factor ** attempt);
  return Math.round(random() * ceiling);
}

/**
 * Runs `task` until it succeeds, a non-retriable error is thrown, or the retries run out. The last error is kept
 * as the `cause` of the RetriesExhaustedError so nothing about the failure is lost.
 */
export async function retry<T>(task: (attempt: number) => Promise<T>, options: Partial<RetryOptions> = {}): Promise<T> {
  const opts = { ...defaultRetryOptions, ...options };
  for (let attempt = 0; ; attempt++) {
    try {
      return await task(attempt);
    } catch (error) {
      if (!isRetriable(error) || attempt >= opts.retries) throw new RetriesExhaustedError(attempt + 1, error);
      const delayMs = backoffDelay(attempt, opts);
      opts.onRetry?.(error, attempt + 1, delayMs);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}
