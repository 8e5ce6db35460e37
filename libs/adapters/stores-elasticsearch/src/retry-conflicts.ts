import { MemoryServiceError } from '@memory/platform';
import type { Family } from './errors.js';

/** Thrown by an attempt whose conditional write lost to another writer; the loop reads again and retries. */
export class VersionConflict extends Error {
  constructor() {
    super('version conflict');
    this.name = 'VersionConflict';
  }
}

export interface ConflictRetryOptions {
  attempts: number;
  /** Ceiling of the first backoff; it doubles per attempt, with full jitter. */
  initialDelayMs: number;
  maxDelayMs: number;
}

export const defaultConflictRetry: ConflictRetryOptions = { attempts: 30, initialDelayMs: 5, maxDelayMs: 500 };

/**
 * Read-modify-write under optimistic concurrency: runs `attempt` (read, change, conditional write) until it does
 * not lose to a concurrent writer. Jittered backoff spreads the retries of writers in different processes.
 */
export async function retryOnConflict<T>(family: Family, what: string, attempt: () => Promise<T>, options = defaultConflictRetry): Promise<T> {
  for (let round = 0; ; round++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof VersionConflict)) throw error;
      if (round + 1 >= options.attempts) throw conflictError(family, what, options.attempts);
      await new Promise((resolve) => setTimeout(resolve, conflictBackoffMs(round, options)));
    }
  }
}

/** The wait before another attempt after losing `round + 1` times: doubling, with full jitter. */
export function conflictBackoffMs(round: number, options: ConflictRetryOptions, random = Math.random): number {
  return random() * Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** round);
}

/** What a writer that kept losing answers: retriable, since the others do finish. */
export function conflictError(family: Family, what: string, attempts: number): MemoryServiceError {
  return new MemoryServiceError(`${family}.CONFLICT`, `${what}: still losing to concurrent writers after ${attempts} attempts`, { retriable: true });
}
