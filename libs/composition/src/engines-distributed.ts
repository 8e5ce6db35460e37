import { join } from 'node:path';
import type { Logger } from '@memory/platform';
import type { ElasticsearchStores } from '@memory/stores-elasticsearch';
import type { ServiceConfig } from './config.js';
import { embeddingDimensions } from './embedders.js';
import type { Engines } from './infrastructure.js';
import { namespacedEventLog } from './namespaced-event-log.js';

/** The prefixes of the Elasticsearch indices of the config's namespace: the text stores', and the visual vectors'. */
export function indexPrefixes(config: Pick<ServiceConfig, 'namespace' | 'elasticsearch'>): { text: string; visual: string } {
  const text = config.namespace ? `${config.namespace}-${config.elasticsearch.indexPrefix}` : config.elasticsearch.indexPrefix;
  // Its own indices: the visual descriptor has other dimensions than the text embedding.
  return { text, visual: `${text}-visual` };
}

/**
 * The production shape: Kafka and a Confluent-API registry for the log, Elasticsearch for vectors, centroids,
 * jobs and idempotency keys, ArangoDB for the graph, MinIO for blobs. Without ARANGO_URL the graph stays on disk
 * under MEMORY_DATA_DIR, which holds while one dual-writer process writes it (the local distributed mode; ArangoDB
 * is not installable on our machines). Each adapter is imported when its port is first opened, so a process loads
 * the clients of the engines its roles use and no others.
 */
export function distributedEngines(config: ServiceConfig, logger: Logger): Engines {
  const prefixes = indexPrefixes(config);
  const layout = { shards: config.elasticsearch.shards, ...(config.elasticsearch.replicas === null ? {} : { replicas: config.elasticsearch.replicas }) };
  // Vectors, centroids, jobs and idempotency keys share one connection pool; whoever asks first opens it.
  let stores: Promise<ElasticsearchStores> | undefined;
  const openElasticsearchStores = async (options: Parameters<typeof import('@memory/stores-elasticsearch').openElasticsearchStores>[0]) =>
    (await import('@memory/stores-elasticsearch')).openElasticsearchStores(options);
  const openStores = () =>
    (stores ??= (async () =>
      openElasticsearchStores({ node: config.elasticsearch.url, prefix: prefixes.text, dims: await embeddingDimensions(config, logger), ...layout }))());
  return {
    eventLog: async () => {
      const { openKafkaEventLog } = await import('@memory/eventlog-kafka');
      const log = await openKafkaEventLog({
        brokers: config.kafka.brokers,
        clientId: config.kafka.clientId,
        replicationFactor: config.kafka.replicationFactor,
        defaultPartitions: config.partitions,
        logger,
      });
      return config.namespace ? namespacedEventLog(log, config.namespace) : log;
    },
    schemaRegistry: async () => (await import('@memory/schema-registry-confluent')).createConfluentSchemaRegistry(config.schemaRegistry),
    vectors: async () => (await openStores()).vectors,
    centroids: async () => (await openStores()).centroids,
    visualVectors: async () => {
      const { VISUAL_DESCRIPTOR_DIMS } = await import('@memory/image-analysis/descriptor');
      const visual = await openElasticsearchStores({ node: config.elasticsearch.url, prefix: prefixes.visual, dims: VISUAL_DESCRIPTOR_DIMS, ...layout });
      return visual.vectors;
    },
    jobs: async () => (await openStores()).jobs,
    keys: async () => (await openStores()).keys,
    idempotency: async () => (await openStores()).idempotency,
    webhooks: async () => (await openStores()).webhooks,
    webhookJobs: async () => (await openStores()).webhookJobs,
    graph: async () =>
      config.arango.url
        ? (await import('@memory/graph-arangodb')).openArangoGraphStore({ ...config.arango, url: config.arango.url, collectionPrefix: config.namespace ? `${config.namespace.replace(/-/g, '_')}_` : 'memory_', createDatabase: true })
        : // Several processes share this file: none may replace it by a compacted copy (see the README's forgetting section).
          (await import('@memory/graph-embedded')).createEmbeddedGraphStore({ dir: join(config.dataDir, 'graph'), compactAfterDeletes: false }),
    blobs: async () => (await import('@memory/blobs-minio')).openMinioBlobStore({ endpoint: config.s3.endpoint, accessKey: config.s3.accessKey, secretKey: config.s3.secretKey, bucket: config.s3.bucket, ...(config.namespace ? { prefix: `${config.namespace}/` } : {}) }),
    describe: () => [
      `event log: Kafka ${config.kafka.brokers.join(',')}${config.namespace ? ` (namespace ${config.namespace})` : ''}, schema registry ${config.schemaRegistry.url}`,
      `vectors, centroids, jobs, data keys, idempotency keys, webhooks: Elasticsearch ${config.elasticsearch.url} (indices ${prefixes.text}-*)`,
      config.arango.url ? `graph: ArangoDB ${config.arango.url}` : `graph: on disk in ${join(config.dataDir, 'graph')} (set ARANGO_URL for ArangoDB)`,
      `blobs: S3 ${config.s3.endpoint} bucket ${config.s3.bucket}`,
    ],
  };
}
