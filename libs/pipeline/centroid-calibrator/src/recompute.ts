import type { CentroidStore, Scope, VectorStore } from '@memory/ports';
import { addMembers, emptyCentroid } from './centroid-math.js';

const READ_BATCH = 500;

/**
 * Rebuilds an end user's centroid from the memories the vector store holds now, folded in creation order as the
 * calibrator folded them, so it no longer includes forgotten memories; each member is recorded at the version the
 * store holds. Reads every memory of the user: O(n).
 * Returns how many members the new centroid has.
 */
export async function recomputeCentroid(scope: Scope, stores: { vectors: VectorStore; centroids: CentroidStore }): Promise<number> {
  await stores.centroids.reset(scope);
  const ids = await stores.vectors.ids(scope);
  if (ids.length === 0) return 0;
  const memories = [];
  for (let i = 0; i < ids.length; i += READ_BATCH) memories.push(...(await stores.vectors.get(scope, ids.slice(i, i + READ_BATCH))));
  if (memories.length === 0) return 0;
  memories.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const first = memories[0]!;
  const { centroid, shares } = addMembers(emptyCentroid(first.embeddingModel, first.vector.length), memories.map((memory) => memory.vector));
  await stores.centroids.save(scope, centroid, new Map(memories.map((memory, i) => [memory.id, { version: memory.version ?? 1, similarity: shares[i]! }])));
  return memories.length;
}
