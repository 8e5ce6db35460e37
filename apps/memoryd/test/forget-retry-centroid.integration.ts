import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryIdOf, newDataKey, type ForgetRequested } from '@memory/contracts';
import { MemoryServiceError } from '@memory/platform';
import { Keyring, type BlobStore, type CentroidStore, type DataKeyStore, type GraphStore, type JobStore, type Scope, type VectorStore } from '@memory/ports';
import { centroidCalibratorStage, recomputeCentroid } from '@memory/stage-centroid-calibrator';
import { openEmbeddedKeyStore } from '@memory/keys-embedded';
import { createEmbeddedGraphStore } from '@memory/graph-embedded';
import { createEmbeddedJobStore } from '@memory/jobs-embedded';
import { createEmbeddedVectorStore, openEmbeddedVectorStores } from '@memory/vectors-embedded';
import { forget } from '@memory/stage-forgetter';
import { memoryRecord, unitVector } from '@memory/testing';

/**
 * A forget whose first attempt deletes the memory and then fails before the centroid's recompute saved (an engine
 * answering 503 or 429, a crash) is run again, as the runner retries a failed batch or the log redelivers it. The
 * retry finds nothing left to delete; it must still recompute, or the centroid keeps the forgotten vector for good.
 */
describe('a forget retried after its first attempt failed before the centroid was saved', function () {
  this.timeout(30_000);
  const T = 1_700_000_000_000;
  const scope: Scope = { tenantId: 'acme', endUserId: 'alice' };
  const DIMS = 4;
  const jobOf = (i: number) => `job_${T + i}_alice`;
  const ids = [0, 1, 2].map((i) => memoryIdOf(jobOf(i), 0));
  const vectors = [unitVector(DIMS, { 0: 1 }), unitVector(DIMS, { 1: 1 }), unitVector(DIMS, { 2: 1 })];
  let dir: string;
  let keyStore: DataKeyStore;
  let stores: { vectors: VectorStore; centroids: CentroidStore; close(): Promise<void> };
  let visualVectors: VectorStore;
  let graph: GraphStore;
  let jobs: JobStore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'forget-retry-centroid-'));
    keyStore = await openEmbeddedKeyStore({ dir: join(dir, 'keys') });
    stores = openEmbeddedVectorStores({ dir: join(dir, 'vectors') });
    visualVectors = createEmbeddedVectorStore({ dir: join(dir, 'visual') });
    graph = createEmbeddedGraphStore({ dir: join(dir, 'graph') });
    jobs = createEmbeddedJobStore({ dir: join(dir, 'jobs') });
    await keyStore.create([0, 1, 2].map((i) => ({ scope, keyId: jobOf(i), key: newDataKey() })));
    await stores.vectors.upsert(ids.map((id, i) => memoryRecord(scope, id, DIMS, { vector: vectors[i]!, jobId: jobOf(i), createdAt: T + i })));
    await recomputeCentroid(scope, stores);
  });
  afterEach(async () => {
    await Promise.all([keyStore.close(), stores.close(), visualVectors.close(), graph.close(), jobs.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * The centroid store, its first call of `method` refused as an overloaded engine refuses it: the recompute's read of
   * the revision, or its replace; either leaves the centroid counting the forgotten memory.
   */
  function failingFirst(method: 'get' | 'replace'): CentroidStore {
    let failed = false;
    return Object.create(stores.centroids, {
      [method]: {
        value: async (...args: unknown[]) => {
          if (!failed) {
            failed = true;
            throw new MemoryServiceError('VECTORS.UNAVAILABLE', 'elasticsearch answered 503', { retriable: true });
          }
          return (stores.centroids[method] as (...a: unknown[]) => Promise<void>).apply(stores.centroids, args);
        },
      },
    });
  }

  async function forgetTwice(request: ForgetRequested, failing: 'get' | 'replace', meanwhile?: () => Promise<void>) {
    const blobs = { deletePrefix: async () => 0 } as unknown as BlobStore;
    const deps = { vectors: stores.vectors, visualVectors, graph, centroids: failingFirst(failing), blobs, jobs, keys: new Keyring(keyStore) };
    let first: unknown;
    await forget(request, deps).catch((error: unknown) => (first = error));
    expect((first as MemoryServiceError | undefined)?.code, 'the first attempt fails at the centroid').to.equal('VECTORS.UNAVAILABLE');
    expect((await stores.vectors.ids(scope)).sort()).to.deep.equal([ids[0], ids[2]]);
    await meanwhile?.();
    return forget(request, deps);
  }

  async function expectCentroidWithoutTheForgotten() {
    const centroid = (await stores.centroids.get(scope))!;
    expect(centroid, 'a centroid').to.not.equal(null);
    expect(centroid.memoryCount).to.equal(2);
    Array.from(centroid.sum).forEach((x, i) => expect(x, `sum[${i}]`).to.be.closeTo(vectors[0]![i]! + vectors[2]![i]!, 1e-6));
    expect([...(await stores.centroids.members(scope, ids)).keys()].sort()).to.deep.equal([ids[0], ids[2]]);
  }

  const byMemory: ForgetRequested = { jobId: `del_job_${T + 900}_alice`, ...scope, target: 'memory', memoryId: ids[1]!, targetJobId: null, acceptedAt: T + 900, keysDestroyed: 0 };
  const byJob: ForgetRequested = { jobId: `del_job_${T + 900}_alice`, ...scope, target: 'job', memoryId: null, targetJobId: jobOf(1), acceptedAt: T + 900, keysDestroyed: 0 };
  for (const [what, request] of [['a memory forget', byMemory], ['a job forget, whose memories it can no longer name', byJob]] as const) {
    for (const failing of ['get', 'replace'] as const) {
      it(`recomputes on the retry of ${what}, which deletes nothing (first ${failing} refused)`, async () => {
        const retried = await forgetTwice(request, failing);
        expect(retried.memories).to.equal(0);
        await expectCentroidWithoutTheForgotten();
      });
    }
  }

  it('counts a memory committed between the failed attempt and its retry, and every memory kept', async () => {
    // The first attempt's recompute is refused; the calibrator then folds a new memory into what the centroid holds.
    // Were the centroid emptied before the recompute's write, that fold would start from nothing, and the retry,
    // finding the forgotten memory no member, would leave a centroid of the new memory alone.
    const fourth = memoryRecord(scope, memoryIdOf(jobOf(3), 0), DIMS, { vector: unitVector(DIMS, { 3: 1 }), jobId: jobOf(3), createdAt: T + 3 });
    const foldFourth = async () => {
      await keyStore.create([{ scope, keyId: jobOf(3), key: newDataKey() }]);
      await stores.vectors.upsert([fourth]);
      const commit = { memoryId: fourth.id, jobId: jobOf(3), ...scope, partIndex: 0, partCount: 1, createdAt: T + 3, embeddingModel: fourth.embeddingModel, vector: Array.from(fourth.vector), version: 1, replacedVector: null };
      await centroidCalibratorStage.process([{ event: 'committed', value: commit, topic: 'memory.committed', partition: 0, offset: 0, key: 'acme/alice', timestamp: 1 }], { centroids: stores.centroids, keys: new Keyring(keyStore), vectors: stores.vectors });
    };
    await forgetTwice(byMemory, 'replace', foldFourth);
    const centroid = (await stores.centroids.get(scope))!;
    expect(centroid.memoryCount).to.equal(3);
    Array.from(centroid.sum).forEach((x, i) => expect(x, `sum[${i}]`).to.be.closeTo(vectors[0]![i]! + vectors[2]![i]! + fourth.vector[i]!, 1e-6));
    expect([...(await stores.centroids.members(scope, [...ids, fourth.id])).keys()].sort()).to.deep.equal([ids[0], ids[2], fourth.id].sort());
  });

  it('leaves the centroid alone on a redelivery of a forget that completed', async () => {
    const request = byMemory;
    const deps = { vectors: stores.vectors, visualVectors, graph, centroids: stores.centroids, blobs: { deletePrefix: async () => 0 } as unknown as BlobStore, jobs, keys: new Keyring(keyStore) };
    await forget(request, deps);
    const revision = (await stores.centroids.get(scope))!.revision;
    const again = await forget(request, deps);
    expect(again.removed.some((r) => r.store === 'centroid'), 'no recompute').to.equal(false);
    expect((await stores.centroids.get(scope))!.revision).to.equal(revision);
    await expectCentroidWithoutTheForgotten();
  });
});
