import { expect } from 'chai';
import { newDataKey } from '@memory/contracts';
import type { DataKeyStore } from '@memory/ports';
import type { StoreFactory, StoreHarness } from './store-harness.js';

const T0 = 1_700_000_000_000;
const jobAt = (ms: number, user = 'alice') => `job_${ms}_${user}`;

/**
 * What every DataKeyStore must do: one key per subject whatever the races, forgotten subjects never get a key
 * again (by tombstone, or by an erasure of their end user or tenant), and nothing leaks across scopes.
 */
export function describeKeyStoreContract(name: string, factory: StoreFactory<DataKeyStore>): void {
  describe(`DataKeyStore contract: ${name}`, function () {
    this.timeout(60_000);
    let harness: StoreHarness<DataKeyStore>;
    let scopeCount = 0;
    // Each test has scopes of its own, so a store shared between tests (an Elasticsearch index) needs no wiping.
    const scope = (user = 'alice') => ({ tenantId: `tenant-${process.pid}-${Date.now()}-${scopeCount}`, endUserId: user });
    beforeEach(async () => {
      scopeCount++;
      harness = await factory();
    });
    afterEach(async () => harness.cleanup());
    /** create() of one scope's keys, answered by key id. */
    const create = async (scope: { tenantId: string; endUserId: string }, keys: Map<string, Buffer>, store: DataKeyStore = harness.store) => {
      const ids = [...keys.keys()];
      const stored = await store.create(ids.map((keyId) => ({ scope, keyId, key: keys.get(keyId)! })));
      return new Map(ids.map((keyId, i) => [keyId, stored[i]!]));
    };

    it('keeps the first key of a subject, across concurrent creates and a reopen', async () => {
      const alice = scope();
      const created = await Promise.all(Array.from({ length: 8 }, () => create(alice, new Map([[jobAt(T0), newDataKey()]]))));
      const keys = created.map((m) => m.get(jobAt(T0))!.toString('hex'));
      expect(new Set(keys).size).to.equal(1);
      const store = await harness.reopen();
      expect((await store.get(alice, [jobAt(T0), jobAt(T0 + 1)])).get(jobAt(T0))!.toString('hex')).to.equal(keys[0]);
      expect((await store.get(alice, [jobAt(T0 + 1)])).size).to.equal(0);
    });

    it('forgets a subject for good: the key is gone and is never created again, even after a reopen', async () => {
      const alice = scope();
      await create(alice, new Map([[jobAt(T0), newDataKey()], [jobAt(T0 + 1), newDataKey()]]));
      expect(await harness.store.forget(alice, [jobAt(T0), 'job_9_never'])).to.equal(1);
      expect(await harness.store.forget(alice, [jobAt(T0)])).to.equal(0);
      const store = await harness.reopen();
      expect([...(await store.get(alice, [jobAt(T0), jobAt(T0 + 1)])).keys()]).to.deep.equal([jobAt(T0 + 1)]);
      expect((await create(alice, new Map([[jobAt(T0), newDataKey()]]), store)).get(jobAt(T0))).to.equal(null);
      expect([...(await store.forgotten(alice, [jobAt(T0), jobAt(T0 + 1), 'job_9_never']))].sort()).to.deep.equal([jobAt(T0), 'job_9_never'].sort());
    });

    it('forgets the parts of a forgotten job, those with keys and those the enricher has not split yet', async () => {
      const alice = scope();
      const job = `doc_job_${T0}_alice`;
      const page = (n: number) => `mem_${job}_${n}`;
      await create(alice, new Map([[job, newDataKey()], [page(0), newDataKey()], [page(1), newDataKey()], [`mem_${job}x_0`, newDataKey()]]));
      expect(await harness.store.forget(alice, [job])).to.equal(3);
      expect([...(await harness.store.get(alice, [page(0), page(1), `mem_${job}x_0`])).keys()]).to.deep.equal([`mem_${job}x_0`]);
      expect((await create(alice, new Map([[page(7), newDataKey()]]))).get(page(7))).to.equal(null);
      expect([...(await harness.store.forgotten(alice, [page(7), `mem_${job}x_0`]))]).to.deep.equal([page(7)]);
    });

    it('erases an end user: everything accepted before the erasure, and keys without an accept time; later subjects live', async () => {
      const alice = scope();
      const bob = { ...alice, endUserId: 'bob' };
      const before = jobAt(T0), after = jobAt(T0 + 10), page = `mem_doc_job_${T0 - 5}_alice_2`;
      await create(alice, new Map([[before, newDataKey()], [after, newDataKey()], [page, newDataKey()], ['centroid', newDataKey()]]));
      await create(bob, new Map([[jobAt(T0, 'bob'), newDataKey()]]));
      expect(await harness.store.erase(alice, T0 + 5)).to.equal(3);
      expect([...(await harness.store.get(alice, [before, after, page, 'centroid'])).keys()]).to.deep.equal([after]);
      expect((await harness.store.get(bob, [jobAt(T0, 'bob')])).size, 'another end user keeps their keys').to.equal(1);
      const again = await create(alice, new Map([[before, newDataKey()], [jobAt(T0 + 20), newDataKey()], ['centroid', newDataKey()]]));
      expect(again.get(before)).to.equal(null);
      expect(again.get(jobAt(T0 + 20))).to.be.instanceOf(Buffer);
      expect(again.get('centroid'), 'the aggregate key starts anew').to.be.instanceOf(Buffer);
      expect([...(await harness.store.forgotten(alice, [before, page, after]))].sort()).to.deep.equal([before, page].sort());
    });

    it('erases a whole tenant, and no other', async () => {
      const alice = scope();
      const bob = { ...alice, endUserId: 'bob' };
      const other = { tenantId: `${alice.tenantId}-other`, endUserId: 'alice' };
      for (const s of [alice, bob, other]) await create(s, new Map([[jobAt(T0, s.endUserId), newDataKey()]]));
      expect(await harness.store.erase({ tenantId: alice.tenantId, endUserId: null }, T0 + 1)).to.equal(2);
      expect((await harness.store.get(bob, [jobAt(T0, 'bob')])).size).to.equal(0);
      expect((await create(bob, new Map([[jobAt(T0 - 1, 'bob'), newDataKey()]]))).get(jobAt(T0 - 1, 'bob'))).to.equal(null);
      expect((await harness.store.get(other, [jobAt(T0)])).size).to.equal(1);
    });

    it('moves an erasure boundary only forward: concurrent erasures of one end user (and of a tenant) end with the latest', async () => {
      const alice = scope();
      const tenant = { tenantId: alice.tenantId, endUserId: null };
      const bob = { ...alice, endUserId: 'bob' };
      // The latest boundary goes first, so a store whose erasures overwrite each other ends with an older one.
      const boundaries = Array.from({ length: 12 }, (_, i) => T0 + 1_000 - i * 10);
      const latest = T0 + 1_000;
      await Promise.all(boundaries.flatMap((before) => [harness.store.erase(alice, before), harness.store.erase(tenant, before - 500)]));
      const covered = async (store: DataKeyStore) =>
        store.erasedAmong([
          { scope: alice, keyId: jobAt(latest - 1) },
          { scope: alice, keyId: jobAt(latest) },
          { scope: bob, keyId: jobAt(latest - 501, 'bob') },
          { scope: bob, keyId: jobAt(latest - 500, 'bob') },
        ]);
      expect(await covered(harness.store), 'the latest boundaries, of the end user and of the tenant').to.deep.equal([true, false, true, false]);
      await harness.store.erase(alice, T0);
      await harness.store.erase(tenant, T0);
      expect(await covered(harness.store), 'an older erasure afterwards moves nothing back').to.deep.equal([true, false, true, false]);
      expect(await covered(await harness.reopen()), 'after a reopen').to.deep.equal([true, false, true, false]);
    });

    it('creates the keys of several end users in one call, each in its own scope', async () => {
      const alice = scope();
      const bob = { ...alice, endUserId: 'bob' };
      await harness.store.forget(bob, [jobAt(T0, 'bob')]);
      const [a, b, again] = await harness.store.create([
        { scope: alice, keyId: jobAt(T0), key: newDataKey() },
        { scope: bob, keyId: jobAt(T0, 'bob'), key: newDataKey() },
        { scope: alice, keyId: jobAt(T0), key: newDataKey() },
      ]);
      expect(a).to.be.instanceOf(Buffer);
      expect(b, 'forgotten before').to.equal(null);
      expect(again!.equals(a!), 'the same subject twice in one call gets one key').to.equal(true);
    });

    it('tells, in one call over end users and tenants, which subjects an erasure covers, each in its own scope', async () => {
      const alice = scope();
      const bob = { ...alice, endUserId: 'bob' };
      const carol = { ...alice, endUserId: 'carol' };
      const other = { tenantId: `${alice.tenantId}-other`, endUserId: 'alice' };
      const document = `doc_job_${T0}_bob`;
      await create(bob, new Map([[jobAt(T0, 'bob'), newDataKey()], [document, newDataKey()]]));
      await harness.store.erase(alice, T0 + 5);
      await harness.store.forget(bob, [document]);
      await harness.store.erase({ tenantId: other.tenantId, endUserId: null }, T0 + 5);
      const answers = await harness.store.erasedAmong([
        { scope: alice, keyId: jobAt(T0) },
        { scope: alice, keyId: jobAt(T0 + 10) },
        { scope: bob, keyId: jobAt(T0, 'bob') },
        { scope: bob, keyId: `mem_${document}_3` },
        { scope: carol, keyId: `mem_${document}_3` },
        { scope: carol, keyId: jobAt(T0, 'carol') },
        { scope: other, keyId: jobAt(T0) },
      ]);
      // bob's document has a tombstone, not an erasure: forgotten, but not erased.
      expect(answers).to.deep.equal([true, false, false, false, false, false, true]);
      expect((await harness.store.forgotten(bob, [`mem_${document}_3`])).size).to.equal(1);
      expect(await harness.store.erasedAmong([])).to.deep.equal([]);
    });

    it('never serves a key across end users or tenants', async () => {
      const alice = scope();
      await create(alice, new Map([[jobAt(T0), newDataKey()]]));
      expect((await harness.store.get({ ...alice, endUserId: 'mallory' }, [jobAt(T0)])).size).to.equal(0);
      expect((await harness.store.get({ ...alice, tenantId: `${alice.tenantId}x` }, [jobAt(T0)])).size).to.equal(0);
      await harness.store.forget({ ...alice, endUserId: 'mallory' }, [jobAt(T0)]);
      expect((await harness.store.get(alice, [jobAt(T0)])).size).to.equal(1);
    });
  });
}
