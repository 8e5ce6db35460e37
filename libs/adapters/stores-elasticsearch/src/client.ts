import { Client, SniffingTransport } from '@elastic/elasticsearch';
import type { ElasticsearchStoresSettings } from './options.js';

/**
 * One client (one connection pool) shared by the stores of one open: each store holds a reference and the pool
 * closes when the last one lets go, so closing one store leaves the others working.
 */
export class SharedClient {
  private references = 0;
  private closing: Promise<void> | null = null;

  constructor(readonly client: Client) {}

  static connect(settings: ElasticsearchStoresSettings): SharedClient {
    return new SharedClient(
      new Client({
        node: settings.node,
        ...(settings.auth ? { auth: settings.auth } : {}),
        requestTimeout: settings.requestTimeoutMs,
        maxRetries: settings.maxRetries,
        Transport: QuickRetryTransport,
      }),
    );
  }

  acquire(): Client {
    this.references += 1;
    return this.client;
  }

  async release(): Promise<void> {
    this.references -= 1;
    if (this.references > 0) return;
    this.closing ??= this.client.close();
    await this.closing;
  }
}

/**
 * The client's own retries of a refused or reset connection, with a short backoff: at most 0.2, 0.4 and 0.8 s
 * (full jitter) instead of the client's 1-2, 2-4 and 2-4 s. With Elasticsearch down, a search answered 503 only after
 * 7-8 s, and a stage's retry loop spent about 40 s per round, so the pipeline drained 84 s after the restart (an
 * outage drill). Longer waits belong to the callers, who have them: Retry-After for clients, the stage runner's
 * retries and the log's redelivery for the pipeline.
 */
export function quickRetryBackoff(_min: number, max: number, attempt: number, random = Math.random): number {
  return random() * Math.min(max, 0.1 * 2 ** attempt);
}

class QuickRetryTransport extends SniffingTransport {
  constructor(options: ConstructorParameters<typeof SniffingTransport>[0]) {
    super({ ...options, retryBackoff: (min, max, attempt) => quickRetryBackoff(min, max, attempt) });
  }
}
