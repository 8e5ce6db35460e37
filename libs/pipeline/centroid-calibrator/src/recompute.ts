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
 * The revision is read before the memories, and the result replaces the centroid only if it is still that revision:
 * a save in between (the calibrator's fold, another recompute that read the store after a memory was deleted) sends
 * this one back to read again, so a recompute never brings back a forgotten memory's vector nor drops a fold, and no
 * reader ever sees the centroid empty.
 */
export async function recomputeCentroid(scope: Scope, stores: { vectors: VectorStore; centroids: CentroidStore }): Promise<number> {
  return whileCentroidChanged(RECOMPUTE_ATTEMPTS, async () => {
    const revision = (await stores.centroids.get(scope))?.revision ?? null;
    const ids = await stores.vectors.ids(scope);
    const memories = [];
    for (let i = 0; i < ids.length; i += READ_BATCH) memories.push(...(await stores.vectors.get(scope, ids.slice(i, i + READ_BATCH))));
    if (memories.length === 0) {
      await stores.centroids.replace(scope, null, new Map(), { ifRevision: revision });
      return 0;
    }
    memories.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const first = memories[0]!;
    const { centroid, shares } = addMembers(emptyCentroid(first.embeddingModel, first.vector.length), memories.map((memory) => memory.vector));
    const members = new Map(memories.map((memory, i) => [memory.id, { version: memory.version ?? 1, similarity: shares[i]! }]));
    await stores.centroids.replace(scope, centroid, members, { ifRevision: revision });
    return memories.length;
  });
}
