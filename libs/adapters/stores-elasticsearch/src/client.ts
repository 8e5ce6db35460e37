import { Client } from '@elastic/elasticsearch';
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
