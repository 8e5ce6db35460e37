import type { StageSpec, Emit, Incoming } from '@memory/pipeline-runtime';
import { progress } from '@memory/pipeline-runtime';
import { contentKeyId } from '@memory/contracts';
import type { CentroidStore, Keyring, Scope, VectorStore } from '@memory/ports';
import { addMembers, centroidDirection, emptyCentroid } from './centroid-math.js';
import { recomputeCentroid } from './recompute.js';

export * from './centroid-math.js';
export * from './recompute.js';

export interface CentroidCalibratorDeps {
  centroids: CentroidStore;
  /** To see, after a save, whether a member was forgotten meanwhile, and the memories to recompute from then. */
  keys: Pick<Keyring, 'forgotten'>;
  vectors: VectorStore;
}

/**
 * Recalculates each end user's semantic centroid after commits. Memories already folded in are skipped, so
 * redelivery and replay leave the centroid as it was; the job's part is Completed here, at the end of the chain.
 */
export const centroidCalibratorStage: StageSpec<'committed', CentroidCalibratorDeps> = {
  name: 'centroid-calibrator',
  group: 'centroid-calibrator',
  inputs: ['committed'],
  outputs: ['centroidUpdated', 'jobStatus'],
  async process(batch, { centroids, keys, vectors }) {
    const byUser = new Map<string, Array<Incoming<'committed'>>>();
    for (const item of batch) {
      const key = `${item.value.tenantId}/${item.value.endUserId}`;
      byUser.set(key, [...(byUser.get(key) ?? []), item]);
    }
    const updates = new Map<Incoming<'committed'>, Emit>();
    for (const items of byUser.values()) {
      const first = items[0]!.value;
      const scope: Scope = { tenantId: first.tenantId, endUserId: first.endUserId };
      const known = await centroids.members(scope, items.map((i) => i.value.memoryId));
      // A member's vector changes when the memory is updated: the sum cannot take one member's old vector out, so
      // the centroid is recomputed from the store (as after a forget), O(memories of the user) per updated batch.
      if (items.some((i) => i.value.version > 1 && known.has(i.value.memoryId))) {
        await recomputeCentroid(scope, { vectors, centroids });
        continue;
      }
      const fresh = items.filter((i, index) => !known.has(i.value.memoryId) && items.findIndex((j) => j.value.memoryId === i.value.memoryId) === index);
      if (fresh.length === 0) continue;
      const current = (await centroids.get(scope)) ?? emptyCentroid(first.embeddingModel, first.vector.length);
      const next = addMembers(current, fresh.map((i) => i.value.vector));
      await centroids.save(scope, next, fresh.map((i) => i.value.memoryId));
      // A member forgotten between this batch's decoding and the save: the forgetter may have recomputed already,
      // so recompute again without it.
      const forgotten = await keys.forgotten(scope, fresh.map((i) => contentKeyId(i.value)));
      if (forgotten.size > 0) {
        await recomputeCentroid(scope, { vectors, centroids });
        continue;
      }
      const last = fresh[fresh.length - 1]!;
      updates.set(last, {
        event: 'centroidUpdated',
        value: {
          tenantId: scope.tenantId,
          endUserId: scope.endUserId,
          embeddingModel: next.embeddingModel,
          memoryCount: next.memoryCount,
          centroid: Array.from(centroidDirection(next)),
          meanSimilarity: next.similaritySum / next.memoryCount,
          triggeredBy: last.value.memoryId,
        },
      });
    }
    return batch.map((item) => {
      const done = progress('centroid-calibrator', item.value, { state: 'Completed', partIndex: item.value.partIndex, partCount: item.value.partCount, memoryId: item.value.memoryId });
      const update = updates.get(item);
      return update ? [update, done] : [done];
    });
  },
};
