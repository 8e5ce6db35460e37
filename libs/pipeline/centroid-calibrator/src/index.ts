import type { StageSpec, Emit, Incoming } from '@memory/pipeline-runtime';
import { progress } from '@memory/pipeline-runtime';
import { contentKeyId, memoryOfContentKey, type MemoryCommitted } from '@memory/contracts';
import type { Centroid, CentroidMember, CentroidStore, Keyring, Scope, VectorStore } from '@memory/ports';
import { addMembers, centroidDirection, emptyCentroid, replaceMember } from './centroid-math.js';
import { recomputeCentroid, whileCentroidChanged } from './recompute.js';

export * from './centroid-math.js';
export * from './recompute.js';

export interface CentroidCalibratorDeps {
  centroids: CentroidStore;
  /** To see, after a save, whether a member was forgotten meanwhile, and the memories to recompute from then. */
  keys: Pick<Keyring, 'forgotten'>;
  vectors: VectorStore;
}

/**
 * Keeps each end user's semantic centroid in step with its commits: a new memory is folded in, a corrected one has
 * its old vector (carried by the commit) swapped for the new, both O(dimensions). Each member's version is recorded,
 * so redelivery and replay leave the centroid as it was. What cannot be swapped (the replaced vector unknown, a
 * member recorded without its version) is recomputed from the store, O(memories of the user). The job's part is
 * Completed here, at the end of the chain.
 */
export const centroidCalibratorStage: StageSpec<'committed', CentroidCalibratorDeps> = {
  name: 'centroid-calibrator',
  group: 'centroid-calibrator',
  inputs: ['committed'],
  outputs: ['centroidUpdated', 'jobStatus'],
  // Every read and write is of the batch's own end users' centroids and memories.
  endUsersApart: true,
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
      const plan = await foldAndSave(scope, items.map((i) => i.value), centroids);
      if (plan === 'recompute') {
        await recomputeCentroid(scope, { vectors, centroids });
        continue;
      }
      // A member forgotten between this batch's decoding and the save: the forgetter may have recomputed already,
      // so recompute again without it. Checked for every memory of the batch, whatever the fold decided: a batch
      // retried after this check failed (its save done) folds to 'unchanged', and skipping the check then would
      // leave the forgotten vector in the centroid for good. A recompute reads the store, so needs no check.
      const forgotten = await keys.forgotten(scope, items.map((i) => contentKeyId(i.value)));
      if (forgotten.size > 0) {
        await recomputeCentroid(scope, { vectors, centroids });
        continue;
      }
      if (plan === 'unchanged') continue;
      const changedItems = items.filter((i) => plan.changed.has(i.value.memoryId));
      const last = changedItems[changedItems.length - 1]!;
      updates.set(last, {
        event: 'centroidUpdated',
        value: {
          tenantId: scope.tenantId,
          endUserId: scope.endUserId,
          embeddingModel: plan.centroid.embeddingModel,
          memoryCount: plan.centroid.memoryCount,
          centroid: Array.from(centroidDirection(plan.centroid)),
          meanSimilarity: plan.centroid.similaritySum / plan.centroid.memoryCount,
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
  // A commit that no longer opens is of a forgotten memory: if an earlier delivery folded it in and stopped before its
  // check of the tombstones, the centroid still counts it among its members, and is recomputed from the store.
  async takeBackForgotten(scope, records, { centroids, vectors }) {
    const ids = records.map(({ keyId }) => memoryOfContentKey(keyId)).filter((id): id is string => id !== null);
    if (ids.length === 0) return;
    if ((await centroids.members(scope, ids)).size > 0) await recomputeCentroid(scope, { vectors, centroids });
  },
};

/** Folds a save lost to a concurrent recompute again, from what that recompute left; then the batch is retried. */
const SAVE_ATTEMPTS = 3;

/**
 * Folds one end user's commits into the centroid it reads and saves the result on the condition that nothing
 * changed it meanwhile: a forget's recompute in between (another stage, maybe another process) has removed a
 * forgotten memory's vector, which a save based on the earlier read would bring back.
 */
function foldAndSave(scope: Scope, commits: MemoryCommitted[], centroids: CentroidStore): Promise<Plan> {
  return whileCentroidChanged(SAVE_ATTEMPTS, async () => {
    // The centroid first: a recompute after this read changes its revision, so members read after it cannot be
    // older than the centroid the save is conditioned on.
    const read = await centroids.get(scope);
    const known = await centroids.members(scope, commits.map((c) => c.memoryId));
    const plan = fold(commits, known, read);
    if (typeof plan !== 'string') await centroids.save(scope, plan.centroid, plan.changed, { ifRevision: read?.revision ?? null });
    return plan;
  });
}

/** What one end user's commits of a batch do to its centroid: the new centroid and the members they change, nothing, or a recompute. */
export type Plan = { centroid: Centroid; changed: Map<string, CentroidMember> } | 'unchanged' | 'recompute';

/**
 * Folds one end user's commits, in log order, into its centroid (null: none yet). A commit of a version the centroid
 * already holds (or a later one) changes nothing; a member's next version is swapped in when the commit carries the
 * vector it replaced; anything else asks for a recompute. Pure.
 */
export function fold(commits: MemoryCommitted[], known: Map<string, CentroidMember | null>, current: Centroid | null): Plan {
  const changed = new Map<string, CentroidMember>();
  let centroid: Centroid | undefined;
  for (const commit of commits) {
    const member = changed.get(commit.memoryId) ?? known.get(commit.memoryId);
    if (member === null) {
      // Recorded before members carried their version: only its first version is known to be in.
      if (commit.version > 1) return 'recompute';
      continue;
    }
    if (member && member.version >= commit.version) continue;
    if (member && !(commit.replacedVector && member.version === commit.version - 1)) return 'recompute';
    centroid ??= current ?? emptyCentroid(commit.embeddingModel, commit.vector.length);
    const next = member ? replaceMember(centroid, { vector: commit.replacedVector!, share: member.similarity }, commit.vector) : addMembers(centroid, [commit.vector]);
    centroid = next.centroid;
    changed.set(commit.memoryId, { version: commit.version, similarity: next.shares[0]! });
  }
  return centroid ? { centroid, changed } : 'unchanged';
}
