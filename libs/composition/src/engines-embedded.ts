import { join } from 'node:path';
import { createEmbeddedEventLog } from '@memory/eventlog-embedded';
import { createEmbeddedSchemaRegistry } from '@memory/schema-registry-embedded';
import { createEmbeddedVectorStore, openEmbeddedVectorStores, type EmbeddedVectorStores } from '@memory/vectors-embedded';
import { createEmbeddedGraphStore } from '@memory/graph-embedded';
import { createEmbeddedIdempotencyStore, createEmbeddedJobStore } from '@memory/jobs-embedded';
import { openFsBlobStore } from '@memory/blobs-fs';
import type { ServiceConfig } from './config.js';
import type { Engines } from './infrastructure.js';

/** Everything in one process, on disk under MEMORY_DATA_DIR: the default, and what every test starts from. */
export function embeddedEngines(config: ServiceConfig): Engines {
  const dir = (name: string) => join(config.dataDir, name);
  // Vectors and centroids share one LMDB environment; whoever asks first opens it.
  let vectorStores: EmbeddedVectorStores | undefined;
  const openVectorStores = () => (vectorStores ??= openEmbeddedVectorStores({ dir: dir('vectors') }));
  return {
    eventLog: () => createEmbeddedEventLog({ dir: dir('log'), defaultPartitions: config.partitions }),
    schemaRegistry: () => createEmbeddedSchemaRegistry({ dir: dir('registry') }),
    vectors: async () => openVectorStores().vectors,
    centroids: async () => openVectorStores().centroids,
    visualVectors: async () => createEmbeddedVectorStore({ dir: dir('visual-vectors') }),
    graph: async () => createEmbeddedGraphStore({ dir: dir('graph') }),
    jobs: async () => createEmbeddedJobStore({ dir: dir('jobs') }),
    idempotency: async () => createEmbeddedIdempotencyStore({ dir: dir('idempotency') }),
    blobs: () => openFsBlobStore({ dir: dir('blobs') }),
    describe: () => [`embedded engines, data in ${config.dataDir}`],
  };
}
