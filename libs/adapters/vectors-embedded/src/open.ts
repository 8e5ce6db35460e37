import { finishPendingCompaction } from '@memory/platform';
import type { CentroidStore, VectorStore } from '@memory/ports';
import { EmbeddedCentroidStore } from './centroid-store.js';
import { resolveVectorStoreOptions, type EmbeddedVectorStoreOptions } from './options.js';
import { VectorStorage } from './storage.js';
import { EmbeddedVectorStore } from './vector-store.js';

export interface EmbeddedVectorStores {
  vectors: VectorStore;
  centroids: CentroidStore;
  /** Closes both stores and the environment they share. */
  close(): Promise<void>;
}

/** Both stores over one LMDB environment in `dir`. */
export function openEmbeddedVectorStores(options: EmbeddedVectorStoreOptions): EmbeddedVectorStores {
  const resolved = resolveVectorStoreOptions(options);
  const storage = VectorStorage.open(resolved.dir);
  const vectors = new EmbeddedVectorStore(storage.acquire(), resolved.maxCachedVectors);
  const centroids = new EmbeddedCentroidStore(storage.acquire());
  return {
    vectors,
    centroids,
    close: async () => {
      await vectors.close();
      await centroids.close();
    },
  };
}

/** Compacts the store in `dir` if a process deleted from it and died before closing it (see markForCompaction). */
export function finishVectorStoreCompaction(dir: string): Promise<void> {
  return finishPendingCompaction(dir, () => VectorStorage.open(dir).env);
}

export function createEmbeddedVectorStore(options: EmbeddedVectorStoreOptions): VectorStore {
  const resolved = resolveVectorStoreOptions(options);
  return new EmbeddedVectorStore(VectorStorage.open(resolved.dir).acquire(), resolved.maxCachedVectors);
}

export function createEmbeddedCentroidStore(options: EmbeddedVectorStoreOptions): CentroidStore {
  const resolved = resolveVectorStoreOptions(options);
  return new EmbeddedCentroidStore(VectorStorage.open(resolved.dir).acquire());
}
