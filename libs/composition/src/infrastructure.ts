import { AvroCodec, DEFAULT_PARTITIONS, EVENTS } from '@memory/contracts';
import type { Logger } from '@memory/platform';
import { Keyring, type BlobStore, type CentroidStore, type DataKeyStore, type Embedder, type EventLog, type GraphStore, type IdempotencyStore, type JobStore, type SchemaRegistry, type VectorStore, type WebhookStore } from '@memory/ports';
import type { Enricher } from '@memory/enrichment';
import type { FilePool } from '@memory/file-pool';
import type { Deliverer } from '@memory/stage-webhook-dispatcher';
import type { ServiceConfig } from './config.js';
import { webhookSchedule } from './webhooks.js';
import { openEmbedder } from './embedders.js';
import { embeddedEngines } from './engines-embedded.js';
import { distributedEngines } from './engines-distributed.js';
import { Resources } from './lazy.js';

/** How each port is served: one opener per port, each returning the resource and how to close it. */
export interface Engines {
  eventLog(): Promise<EventLog>;
  schemaRegistry(): Promise<SchemaRegistry>;
  vectors(): Promise<VectorStore>;
  /** Image memories by their visual descriptor (search by image). */
  visualVectors(): Promise<VectorStore>;
  centroids(): Promise<CentroidStore>;
  graph(): Promise<GraphStore>;
  jobs(): Promise<JobStore>;
  /** Idempotency-Key records of the requests that create jobs; shared by every edge process. */
  idempotency(): Promise<IdempotencyStore>;
  blobs(): Promise<BlobStore>;
  /** Webhook endpoints and their delivery queue; shared by the edge and the webhook dispatcher. */
  webhooks(): Promise<WebhookStore>;
  /** The webhook dispatcher's own projection of jobs, so it never waits for the job tracker's. */
  webhookJobs(): Promise<JobStore>;
  /** The data keys that seal content in the log, and the tombstones of what was forgotten. */
  keys(): Promise<DataKeyStore>;
  /** One line per engine for readiness and start-up messages, e.g. "event log: kafka 127.0.0.1:9092". */
  describe(): string[];
}

/**
 * The ports a process may use, opened on first use and closed together: the engines' stores, plus the event log
 * as a ready bus and the models.
 */
const DAY_MS = 24 * 3_600_000;

export interface Infrastructure extends Omit<Engines, 'eventLog' | 'describe'> {
  config: ServiceConfig;
  logger: Logger;
  engines: string[];
  /** The event log with its topics ensured and the codec with every schema registered. */
  eventBus(): Promise<{ log: EventLog; codec: AvroCodec }>;
  /** The process's one keyring over the key store: what the codec seals and opens with, and what forgets. */
  keyring(): Promise<Keyring>;
  embedder(): Promise<Embedder>;
  enricher(): Promise<Enricher>;
  /** The file workers: PDF and image reading (OCR included) in child processes, with limits per file. */
  files(): Promise<FilePool>;
  /** The loop that sends due webhook deliveries; started once, by the process running the webhook dispatcher. */
  webhookDeliverer(): Promise<Deliverer>;
  close(): Promise<void>;
}

export function openInfrastructure(config: ServiceConfig, logger: Logger): Infrastructure {
  const engines = config.mode === 'distributed' ? distributedEngines(config, logger) : embeddedEngines(config);
  const resources = new Resources();
  const closeIt = (resource: { close(): Promise<void> }) => resource.close();

  const eventLog = () => resources.get('event log', engines.eventLog, closeIt);
  // The embedded event log locks the data folder. Every other embedded store opens after it: opening one may compact
  // it (finishPendingCompaction renames its file), which under a process that already holds the folder would swap the
  // file it is writing to. Opened first, the log also closes last, so stores compact on close under the lock.
  const store = <T extends { close(): Promise<void> }>(name: string, open: () => Promise<T>) =>
    resources.get(
      name,
      async () => {
        if (config.mode === 'embedded') await eventLog();
        return open();
      },
      closeIt,
    );
  const registry = () => store('schema registry', engines.schemaRegistry);
  const keys = () => store('key store', engines.keys);
  const keyring = () => resources.get('keyring', async () => new Keyring(await keys()), async () => {});

  return {
    config,
    logger,
    engines: engines.describe(),
    eventBus: () =>
      resources.get(
        'event bus',
        async () => {
          const [log, schemas, keys] = await Promise.all([eventLog(), registry(), keyring()]);
          const codec = new AvroCodec(schemas, keys);
          await codec.registerAll();
          await log.ensureTopics(Object.values(EVENTS).map((event) => ({ name: event.topic, partitions: config.partitions ?? DEFAULT_PARTITIONS })));
          return { log, codec };
        },
        async () => {},
      ),
    schemaRegistry: registry,
    keys,
    keyring,
    vectors: () => store('vector store', engines.vectors),
    visualVectors: () => store('visual vector store', engines.visualVectors),
    centroids: () => store('centroid store', engines.centroids),
    graph: () => store('graph store', engines.graph),
    jobs: () => store('job store', engines.jobs),
    idempotency: () => store('idempotency store', engines.idempotency),
    blobs: () => store('blob store', engines.blobs),
    webhooks: () => store('webhook store', engines.webhooks),
    webhookJobs: () => store('webhook job projection', engines.webhookJobs),
    webhookDeliverer: () =>
      resources.get(
        'webhook deliverer',
        async () => (await import('@memory/stage-webhook-dispatcher')).startDeliverer({ store: await store('webhook store', engines.webhooks), logger, schedule: webhookSchedule(config), allowPrivateTargets: config.webhooks.allowPrivateTargets, retentionMs: config.webhooks.retentionDays * DAY_MS }),
        (deliverer) => deliverer.stop(),
      ),
    embedder: () => resources.get('embedder', () => openEmbedder(config, logger), closeIt),
    // The libraries behind the enricher, the file workers and the deliverer load with them, in the processes that use them.
    enricher: () => resources.get('enricher', async () => (await import('@memory/enrichment')).createEnricher(), async () => {}),
    files: () => resources.get('file workers', async () => (await import('@memory/file-pool')).createFilePool({ ...config.files, logger }), closeIt),
    close: () => resources.closeAll(),
  };
}
