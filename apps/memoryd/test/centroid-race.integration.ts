import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newDataKey, type MemoryCommitted } from '@memory/contracts';
import { Keyring, type CentroidStore, type DataKeyStore, type Scope, type VectorStore } from '@memory/ports';
import { centroidCalibratorStage, recomputeCentroid } from '@memory/stage-centroid-calibrator';
import { openEmbeddedKeyStore } from '@memory/keys-embedded';
import { openEmbeddedVectorStores } from '@memory/vectors-embedded';
import { MemoryServiceError } from '@memory/platform';
import { expectCode, memoryRecord, unitVector } from '@memory/testing';

/**
 * A forget recomputes the end user's centroid from the store while the calibrator folds a commit of the same user
 * (another stage; in the distributed mode, another process). The calibrator's save must not bring the forgotten
 * memory's vector back into the centroid it read before the recompute.
 */
describe('the calibrator folding while a forget recomputes the same centroid', function () {
  this.timeout(30_000);
  const scope: Scope = { tenantId: 'acme', endUserId: 'alice' };
  const DIMS = 4;
  let dir: string;
  let keyStore: DataKeyStore;
  let stores: { vectors: VectorStore; centroids: CentroidStore; close(): Promise<void> };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'centroid-race-'));
    keyStore = await openEmbeddedKeyStore({ dir: join(dir, 'keys') });
    stores = openEmbeddedVectorStores({ dir: join(dir, 'vectors') });
  });
  afterEach(async () => {
    await Promise.all([keyStore.close(), stores.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  const committed = (id: string, vector: Float32Array): MemoryCommitted => ({
    memoryId: id, jobId: `job-${id}`, tenantId: scope.tenantId, endUserId: scope.endUserId, partIndex: 0, partCount: 1, createdAt: Date.UTC(2024, 0, 10, 12),
    embeddingModel: 'test-model@1', vector: Array.from(vector), version: 1, replacedVector: null,
  });
  const incoming = (value: MemoryCommitted, offset: number) => ({ event: 'committed' as const, value, topic: 'memory.committed', partition: 0, offset, key: 'acme/alice', timestamp: 1 });

  it('folds again from the recomputed centroid, which no longer holds the forgotten memory', async () => {
    const keys = new Keyring(keyStore);
    const vectorsOf = { a: unitVector(DIMS, { 0: 1 }), b: unitVector(DIMS, { 1: 1 }), c: unitVector(DIMS, { 2: 1 }) };
    await keyStore.create(Object.keys(vectorsOf).map((id) => ({ scope, keyId: `job-${id}`, key: newDataKey() })));
    for (const [offset, [id, vector]] of Object.entries(vectorsOf).entries()) {
      await stores.vectors.upsert([memoryRecord(scope, id, DIMS, { vector, jobId: `job-${id}`, createdAt: Date.UTC(2024, 0, 10, 12) + offset })]);
      if (id !== 'c') await centroidCalibratorStage.process([incoming(committed(id, vector), offset)], { centroids: stores.centroids, keys, vectors: stores.vectors });
    }
    // b is forgotten (its memory deleted, the centroid recomputed) after the calibrator has read the centroid and
    // its members for c's commit, just before its save.
    let forgetting: Promise<unknown> | undefined;
    const interleaved: CentroidStore = Object.create(stores.centroids, {
      save: {
        value: async (...args: Parameters<CentroidStore['save']>) => {
          forgetting ??= stores.vectors.delete(scope, ['b']).then(() => recomputeCentroid(scope, stores));
          await forgetting;
          return stores.centroids.save(...args);
        },
      },
    });
    await centroidCalibratorStage.process([incoming(committed('c', vectorsOf.c), 2)], { centroids: interleaved, keys, vectors: stores.vectors });

    const centroid = (await stores.centroids.get(scope))!;
    expect(centroid.memoryCount).to.equal(2);
    Array.from(centroid.sum).forEach((x, i) => expect(x, `sum[${i}]`).to.be.closeTo(vectorsOf.a[i]! + vectorsOf.c[i]!, 1e-6));
    expect([...(await stores.centroids.members(scope, ['a', 'b', 'c'])).keys()].sort()).to.deep.equal(['a', 'c']);
  });

  it('takes back a memory forgotten meanwhile when its tombstone check failed and the batch is retried (the fold then unchanged)', async () => {
    const keys = new Keyring(keyStore);
    const vectorsOf = { a: unitVector(DIMS, { 0: 1 }), b: unitVector(DIMS, { 1: 1 }) };
    await keyStore.create(Object.keys(vectorsOf).map((id) => ({ scope, keyId: `job-${id}`, key: newDataKey() })));
    for (const [offset, [id, vector]] of Object.entries(vectorsOf).entries()) {
      await stores.vectors.upsert([memoryRecord(scope, id, DIMS, { vector, jobId: `job-${id}`, createdAt: Date.UTC(2024, 0, 10, 12) + offset })]);
    }
    await centroidCalibratorStage.process([incoming(committed('a', vectorsOf.a), 0)], { centroids: stores.centroids, keys, vectors: stores.vectors });
    // b's commit is decoded (its key still readable); then b is forgotten whole: key destroyed, memory deleted, the
    // centroid recomputed (it held only a), all before the calibrator reads the centroid. Its fold brings b in; the
    // tombstone check after the save then fails once (transient), and the runner retries the same decoded batch.
    const batch = [incoming(committed('b', vectorsOf.b), 1)];
    await keyStore.forget(scope, ['job-b']);
    await stores.vectors.delete(scope, ['b']);
    await recomputeCentroid(scope, stores);
    let failures = 0;
    const flaky = {
      forgotten: async (...args: Parameters<Keyring['forgotten']>) => {
        if (failures++ === 0) throw new MemoryServiceError('KEYS.UNAVAILABLE', 'the key store is briefly unreachable', { retriable: true });
        return keys.forgotten(...args);
      },
    };
    const deps = { centroids: stores.centroids, keys: flaky, vectors: stores.vectors };
    await expectCode(centroidCalibratorStage.process(batch, deps), 'KEYS.UNAVAILABLE');
    expect((await stores.centroids.get(scope))!.memoryCount, 'b folded in and saved before the failed check').to.equal(2);
    await centroidCalibratorStage.process(batch, deps);

    const centroid = (await stores.centroids.get(scope))!;
    expect(centroid.memoryCount).to.equal(1);
    Array.from(centroid.sum).forEach((x, i) => expect(x, `sum[${i}]`).to.be.closeTo(vectorsOf.a[i]!, 1e-6));
    expect([...(await stores.centroids.members(scope, ['a', 'b'])).keys()]).to.deep.equal(['a']);
  });
});
