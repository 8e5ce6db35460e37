import { errorCode } from '@memory/platform';
import type { CentroidStore, Scope, VectorStore } from '@memory/ports';
import { addMembers, emptyCentroid } from './centroid-math.js';

const READ_BATCH = 500;
/** A recompute that lost to another (a forget's and the calibrator's at once) starts again from what the store holds. */
const RECOMPUTE_ATTEMPTS = 5;

/**
 * Runs a read-fold-save of a centroid again when its conditional save lost (VECTORS.CENTROID_CHANGED), at once and
 * from fresh reads, up to `attempts` times in all; any other failure, or the last lost save, is thrown.
 */
export async function whileCentroidChanged<T>(attempts: number, task: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await task();
    } catch (error) {
      if (errorCode(error) !== 'VECTORS.CENTROID_CHANGED' || attempt >= attempts) throw error;
    }
  }
}

/**
 * Rebuilds an end user's centroid from the memories the vector store holds now, folded in creation order as the
 * calibrator folded them, so it no longer includes forgotten memories; each member is recorded at the version the
 * store holds. Reads every memory of the user: O(n). Returns how many members the new centroid has.
 *
 * The save is conditioned on no centroid having been saved since this recompute's reset: two recomputes at once
 * (a forget's and the calibrator's) could otherwise end with the one that read the store before a memory was
 * deleted, bringing its vector back.
 */
export async function recomputeCentroid(scope: Scope, stores: { vectors: VectorStore; centroids: CentroidStore }): Promise<number> {
  return whileCentroidChanged(RECOMPUTE_ATTEMPTS, async () => {
    await stores.centroids.reset(scope);
    const ids = await stores.vectors.ids(scope);
    const memories = [];
    for (let i = 0; i < ids.length; i += READ_BATCH) memories.push(...(await stores.vectors.get(scope, ids.slice(i, i + READ_BATCH))));
    if (memories.length === 0) return 0;
    memories.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const first = memories[0]!;
    const { centroid, shares } = addMembers(emptyCentroid(first.embeddingModel, first.vector.length), memories.map((memory) => memory.vector));
    const members = new Map(memories.map((memory, i) => [memory.id, { version: memory.version ?? 1, similarity: shares[i]! }]));
    await stores.centroids.save(scope, centroid, members, { ifRevision: null });
    return memories.length;
  });
}
