import { expect } from 'chai';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVENTS, newDataKey, type ForgetRequested } from '@memory/contracts';
import { openEmbeddedKeyStore } from '@memory/keys-embedded';
import { FailedAfter } from '@memory/pipeline-runtime';
import { MemoryServiceError } from '@memory/platform';
import { Keyring, type DataKeyStore, type Scope } from '@memory/ports';
import { forgetterStage, type ForgetDeps } from '@memory/stage-forgetter';

const ACCEPTED = 1_700_000_000_000;
const outage = new MemoryServiceError('VECTORS.UNAVAILABLE', 'the vector store is down', { retriable: true });

/** An erasure of one end user of acme, accepted after every key the test creates. */
const erasure = (endUserId: string, offset: number) => ({
  event: 'forgetRequested' as const,
  value: { jobId: `del_job_${ACCEPTED + 10_000}_${endUserId}`, tenantId: 'acme', endUserId, target: 'user', memoryId: null, targetJobId: null, acceptedAt: ACCEPTED + 10_000, keysDestroyed: 0 } satisfies ForgetRequested,
  topic: EVENTS.forgetRequested.topic,
  partition: 0,
  offset,
  key: `acme/${endUserId}`,
  timestamp: 1,
});

/** Empty stores, except the vector store, which is down for the end users in `down`. */
function storesWithOutage(keys: ForgetDeps['keys'], down: Set<string>): ForgetDeps {
  const ids = async (scope: Scope) => {
    if (down.has(scope.endUserId)) throw outage;
    return [];
  };
  return {
    keys,
    vectors: { ids, delete: async () => 0 },
    visualVectors: { ids: async () => [], delete: async () => 0 },
    graph: { erase: async () => ({ nodes: 0, edges: 0 }) },
    centroids: { reset: async () => {} },
    blobs: { deletePrefix: async () => 0 },
    jobs: { erase: async () => 0 },
  } as unknown as ForgetDeps;
}

/**
 * A request destroys its data keys before it touches the other stores: when a later store fails, the keys it
 * destroyed must still be scrubbed from the key store's file, and the failure must be what the runner sees.
 */
describe('the forgetter scrubs the key store when a request fails', () => {
  let dir: string;
  let store: DataKeyStore;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'forgetter-scrub-'));
    store = await openEmbeddedKeyStore({ dir: join(dir, 'keys') });
  });

  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  const allBytes = async (): Promise<Buffer> => {
    const files = await readdir(join(dir, 'keys'), { withFileTypes: true });
    return Buffer.concat(await Promise.all(files.filter((f) => f.isFile()).map((f) => readFile(join(f.parentPath, f.name)))));
  };

  it('leaves no byte of the keys it destroyed in the file when another store fails, and rethrows that failure', async () => {
    // Enough keys that the erasure frees their pages instead of rewriting them in place.
    const created = (endUserId: string) => Array.from({ length: 200 }, (_, i) => ({ scope: { tenantId: 'acme', endUserId }, keyId: `job_${ACCEPTED + i}_${endUserId}`, key: newDataKey() }));
    const [alice, bob] = [created('alice'), created('bob')];
    await store.create([...alice, ...bob]);
    const deps = storesWithOutage(new Keyring(store), new Set(['alice']));

    const failure = await forgetterStage.process([erasure('alice', 0)], deps).then(() => null, (error: unknown) => error);
    expect(failure).to.equal(outage);
    expect((await store.get({ tenantId: 'acme', endUserId: 'alice' }, alice.map((k) => k.keyId))).size, 'the erasure destroyed the keys').to.equal(0);
    const bytes = await allBytes();
    for (const { keyId, key } of alice) expect(bytes.includes(key), `destroyed key ${keyId}`).to.equal(false);
    for (const { keyId, key } of bob) expect(bytes.includes(key), `live key ${keyId}`).to.equal(true);
  });

  it('reports the failed request, not a failed scrub, and publishes the requests carried out before it', async () => {
    const keyring = new Keyring(store);
    let scrubs = 0;
    const keys: ForgetDeps['keys'] = {
      forget: (scope, keyIds) => keyring.forget(scope, keyIds),
      erase: (scope, before) => keyring.erase(scope, before),
      scrub: async () => {
        scrubs++;
        throw new Error('the disk is full');
      },
    };
    const failure = await forgetterStage.process([erasure('carol', 0), erasure('alice', 1)], storesWithOutage(keys, new Set(['alice']))).then(() => null, (error: unknown) => error);
    expect(failure).to.be.instanceOf(FailedAfter);
    expect((failure as FailedAfter).cause).to.equal(outage);
    expect((failure as FailedAfter).outputs).to.have.length(1);
    expect(scrubs).to.equal(1);
  });
});
