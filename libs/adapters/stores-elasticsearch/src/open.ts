import type { CentroidStore, DataKeyStore, IdempotencyStore, JobStore, VectorStore, WebhookStore } from '@memory/ports';
import { ElasticsearchKeyStore } from './key-store.js';
import { ElasticsearchCentroidStore } from './centroid-store.js';
import { SharedClient } from './client.js';
import { ElasticsearchIdempotencyStore } from './idempotency-store.js';
import { ElasticsearchJobStore } from './job-store.js';
import { indexNames } from './names.js';
import { resolveElasticsearchStoresOptions, type ElasticsearchStoresOptions } from './options.js';
import { dropIndices, ensureIndices } from './setup.js';
import { ElasticsearchVectorStore } from './vector-store.js';
import { ElasticsearchWebhookStore } from './webhook-store.js';

export interface ElasticsearchStores {
  vectors: VectorStore;
  centroids: CentroidStore;
  jobs: JobStore;
  keys: DataKeyStore;
  idempotency: IdempotencyStore;
  webhooks: WebhookStore;
  /** The webhook dispatcher's own projection of jobs. */
  webhookJobs: JobStore;
  /** Closes every store still open and the connection pool they share. */
  close(): Promise<void>;
}

/**
 * The stores over one connection pool. Validates the options before connecting, then makes sure every index
 * exists with its template's mapping (see setup.ts), so the first write finds the right mapping.
 */
export async function openElasticsearchStores(options: ElasticsearchStoresOptions): Promise<ElasticsearchStores> {
  const settings = resolveElasticsearchStoresOptions(options);
  const shared = SharedClient.connect(settings);
  const opening = shared.acquire();
  try {
    await ensureIndices(opening, settings);
  } catch (error) {
    await shared.release();
    throw error;
  }
  const names = indexNames(settings.prefix);
  const vectors = new ElasticsearchVectorStore(shared, names.memories, settings);
  const centroids = new ElasticsearchCentroidStore(shared, { centroids: names.centroids, members: names.centroidMembers }, settings.expungeDelayMs);
  const jobs = new ElasticsearchJobStore(shared, names.jobs, settings.expungeDelayMs);
  const keys = new ElasticsearchKeyStore(shared, names.keys, settings.expungeDelayMs);
  const idempotency = new ElasticsearchIdempotencyStore(shared, names.idempotency, settings.expungeDelayMs);
  const webhooks = new ElasticsearchWebhookStore(shared, { endpoints: names.webhooks, deliveries: names.webhookDeliveries }, settings.expungeDelayMs);
  const webhookJobs = new ElasticsearchJobStore(shared, names.webhookJobs, settings.expungeDelayMs);
  // The stores hold their own references now; the pool closes with the last of them.
  await shared.release();
  return {
    vectors,
    centroids,
    jobs,
    keys,
    idempotency,
    webhooks,
    webhookJobs,
    close: async () => {
      await Promise.all([vectors.close(), centroids.close(), jobs.close(), keys.close(), idempotency.close(), webhooks.close(), webhookJobs.close()]);
    },
  };
}

/**
 * Deletes every index and template of the options' prefix. The stores are projections of the event log, so this
 * is how a store is rebuilt (drop, then replay) and how tests clean up after themselves.
 */
export async function dropElasticsearchStores(options: Pick<ElasticsearchStoresOptions, 'node' | 'auth' | 'prefix' | 'requestTimeoutMs' | 'maxRetries'>): Promise<void> {
  // dims is irrelevant to deleting; any valid value passes validation.
  const settings = resolveElasticsearchStoresOptions({ ...options, dims: 1 });
  const shared = SharedClient.connect(settings);
  try {
    await dropIndices(shared.acquire(), settings);
  } finally {
    await shared.release();
  }
}
