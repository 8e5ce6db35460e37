import { MemoryClient } from '@memory/sdk';

/** Who the tools act as, and where the service's HTTP API is. */
export interface MemoryApiTarget {
  /** e.g. http://127.0.0.1:8080, without a trailing slash. */
  baseUrl: string;
  apiKey: string;
  endUserId: string;
}

/**
 * The service's HTTP API as one tenant (API key) and one end user, through the SDK (@memory/sdk): its retries and
 * Idempotency-Keys, its typed errors. The tools go through HTTP in both transports, so the stdio server works
 * against either mode and the /mcp route gets the same validation, idempotency and limits as any client.
 */
export function memoryApi(target: MemoryApiTarget): MemoryClient {
  return new MemoryClient({ baseUrl: target.baseUrl, apiKey: target.apiKey, endUserId: target.endUserId });
}
