import { join } from 'node:path';
import type { EmbeddedVectorStores } from '@memory/vectors-embedded';
import type { ServiceConfig } from './config.js';
import type { Engines } from './infrastructure.js';

/**
 * Everything in one process, on disk under MEMORY_DATA_DIR: the default, and what every test starts from. The
 * adapters are imported when a port is first opened, so a process of the distributed mode never loads them.
 */
export function embeddedEngines(config: ServiceConfig): Engines {
  const dir = (name: string) => join(config.dataDir, name);
  const vectorsAdapter = () => import('@memory/vectors-embedded');
  const jobsAdapter = () => import('@memory/jobs-embedded');
  // Vectors and centroids share one LMDB environment; whoever asks first opens it.
  // A store that forgot something and was not closed cleanly is compacted before it opens (markForCompaction).
  let vectorStores: Promise<EmbeddedVectorStores> | undefined;
  const openVectorStores = () =>
    (vectorStores ??= vectorsAdapter().then(({ finishVectorStoreCompaction, openEmbeddedVectorStores }) =>
      finishVectorStoreCompaction(dir('vectors')).then(() => openEmbeddedVectorStores({ dir: dir('vectors') })),
    ));
  const openJobStore = async (name: string) => {
    const { createEmbeddedJobStore, finishJobStoreCompaction } = await jobsAdapter();
    await finishJobStoreCompaction(dir(name));
    return createEmbeddedJobStore({ dir: dir(name) });
  };
  return {
    eventLog: async () => (await import('@memory/eventlog-embedded')).createEmbeddedEventLog({ dir: dir('log'), defaultPartitions: config.partitions }),
    schemaRegistry: async () => (await import('@memory/schema-registry-embedded')).createEmbeddedSchemaRegistry({ dir: dir('registry') }),
    vectors: async () => (await openVectorStores()).vectors,
    centroids: async () => (await openVectorStores()).centroids,
    visualVectors: async () => {
      const { createEmbeddedVectorStore, finishVectorStoreCompaction } = await vectorsAdapter();
      await finishVectorStoreCompaction(dir('visual-vectors'));
      return createEmbeddedVectorStore({ dir: dir('visual-vectors') });
    },
    graph: async () => {
      const { createEmbeddedGraphStore, finishGraphStoreCompaction } = await import('@memory/graph-embedded');
      await finishGraphStoreCompaction(dir('graph'));
      return createEmbeddedGraphStore({ dir: dir('graph') });
    },
    jobs: () => openJobStore('jobs'),
    idempotency: async () => {
      const { createEmbeddedIdempotencyStore, finishIdempotencyStoreCompaction } = await jobsAdapter();
      await finishIdempotencyStoreCompaction(dir('idempotency'));
      return createEmbeddedIdempotencyStore({ dir: dir('idempotency') });
    },
    webhooks: async () => {
      const { createEmbeddedWebhookStore, finishWebhookStoreCompaction } = await jobsAdapter();
      await finishWebhookStoreCompaction(dir('webhooks'));
      return createEmbeddedWebhookStore({ dir: dir('webhooks') });
    },
    webhookJobs: () => openJobStore('webhook-jobs'),
    blobs: async () => (await import('@memory/blobs-fs')).openFsBlobStore({ dir: dir('blobs') }),
    keys: async () => (await import('@memory/keys-embedded')).openEmbeddedKeyStore({ dir: dir('keys') }),
    describe: () => [`embedded engines, data in ${config.dataDir}`],
  };
}
