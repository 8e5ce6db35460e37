import { RetriesExhaustedError, retry, type MemoryServiceError } from '@memory/platform';
import { mapKafkaError } from './error-map.js';

/**
 * Runs a kafkajs call through the platform's retry helper, retrying what maps to a retriable EVENTLOG code (a
 * coordinator still loading, a leader moving) and failing at once on the rest. Several admin calls of kafkajs
 * (offset fetches, group descriptions) do not retry on their own. Gives up with the last mapped error.
 */
export async function withKafkaRetries<T>(
  doing: string,
  task: () => Promise<T>,
  options: { retries: number; beforeRetry?: (error: MemoryServiceError) => void },
): Promise<T> {
  try {
    return await retry(
      async () => {
        try {
          return await task();
        } catch (error) {
          throw mapKafkaError(error, doing);
        }
      },
      {
        retries: options.retries,
        initialDelayMs: 100,
        maxDelayMs: 2_000,
        factor: 2,
        onRetry: (error) => options.beforeRetry?.(error as MemoryServiceError),
      },
    );
  } catch (error) {
    throw error instanceof RetriesExhaustedError ? error.cause : error;
  }
}
