import { join } from 'node:path';
import { createEmbeddedEventLog } from '@memory/eventlog-embedded';
import { createEmbeddedSchemaRegistry } from '@memory/schema-registry-embedded';
import { createEmbeddedVectorStore, finishVectorStoreCompaction, openEmbeddedVectorStores, type EmbeddedVectorStores } from '@memory/vectors-embedded';
import { createEmbeddedGraphStore, finishGraphStoreCompaction } from '@memory/graph-embedded';
import { createEmbeddedIdempotencyStore, createEmbeddedJobStore, createEmbeddedWebhookStore, finishJobStoreCompaction } from '@memory/jobs-embedded';
import { openFsBlobStore } from '@memory/blobs-fs';
import { openEmbeddedKeyStore } from '@memory/keys-embedded';
import type { ServiceConfig } from './config.js';
import type { Engines } from './infrastructure.js';

/** Everything in one process, on disk under MEMORY_DATA_DIR: the default, and what every test starts from. */
export function embeddedEngines(config: ServiceConfig): Engines {
  const dir = (name: string) => join(config.dataDir, name);
  // Vectors and centroids share one LMDB environment; whoever asks first opens it.
  // A store that forgot something and was not closed cleanly is compacted before it opens (markForCompaction).
  let vectorStores: Promise<EmbeddedVectorStores> | undefined;
  const openVectorStores = () => (vectorStores ??= finishVectorStoreCompaction(dir('vectors')).then(() => openEmbeddedVectorStores({ dir: dir('vectors') })));
  return {
    eventLog: () => createEmbeddedEventLog({ dir: dir('log'), defaultPartitions: config.partitions }),
    schemaRegistry: () => createEmbeddedSchemaRegistry({ dir: dir('registry') }),
    vectors: async () => (await openVectorStores()).vectors,
    centroids: async () => (await openVectorStores()).centroids,
    visualVectors: async () => {
      await finishVectorStoreCompaction(dir('visual-vectors'));
      return createEmbeddedVectorStore({ dir: dir('visual-vectors') });
    },
    graph: async () => {
      await finishGraphStoreCompaction(dir('graph'));
      return createEmbeddedGraphStore({ dir: dir('graph') });
    },
    jobs: async () => {
      await finishJobStoreCompaction(dir('jobs'));
      return createEmbeddedJobStore({ dir: dir('jobs') });
    },
    idempotency: async () => createEmbeddedIdempotencyStore({ dir: dir('idempotency') }),
    webhooks: async () => createEmbeddedWebhookStore({ dir: dir('webhooks') }),
    webhookJobs: async () => {
      await finishJobStoreCompaction(dir('webhook-jobs'));
      return createEmbeddedJobStore({ dir: dir('webhook-jobs') });
    },
    blobs: () => openFsBlobStore({ dir: dir('blobs') }),
    keys: () => openEmbeddedKeyStore({ dir: dir('keys') }),
    describe: () => [`embedded engines, data in ${config.dataDir}`],
  };
}
