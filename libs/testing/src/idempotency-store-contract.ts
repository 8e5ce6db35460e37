import { expect } from 'chai';
import type { ClaimResult, IdempotencyStore, Scope } from '@memory/ports';
import type { StoreFactory, StoreHarness } from './store-harness.js';
import { uniqueName } from './wait-for.js';

const HOUR = 3_600_000;
const TTL = 24 * HOUR;
const LEASE = 60_000;
const T0 = 1_800_000_000_000;

const claimed = (result: ClaimResult) => {
  if (result.state !== 'claimed') throw new Error(`expected the key to be claimed, got ${JSON.stringify(result)}`);
  return result.claim;
};

/** The behaviour every IdempotencyStore adapter must show; each test uses tenants of its own. */
export function describeIdempotencyStoreContract(adapterName: string, factory: StoreFactory<IdempotencyStore>): void {
  describe(`IdempotencyStore contract: ${adapterName}`, function () {
    this.timeout(30_000);
    let harness: StoreHarness<IdempotencyStore>;
    let store: IdempotencyStore;
    let alice: Scope;
    const at = (now: number, fingerprint = 'fp-1') => ({ fingerprint, now, leaseMs: LEASE, ttlMs: TTL });

    beforeEach(async () => {
      harness = await factory();
      store = harness.store;
      alice = { tenantId: uniqueName('tenant'), endUserId: 'alice' };
    });

    afterEach(async () => {
      await harness.cleanup();
    });

    it('claims a free key, and after completion answers every claim with the stored response and its fingerprint', async () => {
      const claim = claimed(await store.claim(alice, 'key-1', at(T0)));
      expect(await store.claim(alice, 'key-1', at(T0 + 1))).to.deep.equal({ state: 'in-progress', fingerprint: 'fp-1' });
      const response = { status: 202, body: { status: 'Accepted', jobId: 'job_1_alice' } };
      expect(await store.complete(alice, 'key-1', claim, response, { now: T0 + 2, ttlMs: TTL })).to.equal(true);
      expect(await store.claim(alice, 'key-1', at(T0 + 3, 'fp-other'))).to.deep.equal({ state: 'completed', fingerprint: 'fp-1', response });
    });

    it('gives a key to exactly one of 20 concurrent claims', async () => {
      const results = await Promise.all(Array.from({ length: 20 }, () => store.claim(alice, 'key-1', at(T0))));
      expect(results.filter((result) => result.state === 'claimed')).to.have.length(1);
      expect(results.filter((result) => result.state === 'in-progress')).to.have.length(19);
    });

    it('frees a released key for the next claim; a release or completion by a claim that lost the key changes nothing', async () => {
      const first = claimed(await store.claim(alice, 'key-1', at(T0)));
      await store.release(alice, 'key-1', first);
      const second = claimed(await store.claim(alice, 'key-1', at(T0 + 1, 'fp-2')));
      await store.release(alice, 'key-1', first);
      expect(await store.complete(alice, 'key-1', first, { status: 202, body: 'first' }, { now: T0 + 2, ttlMs: TTL })).to.equal(false);
      expect(await store.claim(alice, 'key-1', at(T0 + 3))).to.deep.equal({ state: 'in-progress', fingerprint: 'fp-2' });
      expect(await store.complete(alice, 'key-1', second, { status: 202, body: 'second' }, { now: T0 + 4, ttlMs: TTL })).to.equal(true);
      expect(await store.claim(alice, 'key-1', at(T0 + 5))).to.deep.include({ state: 'completed', response: { status: 202, body: 'second' } });
    });

    it('lets a claim whose holder never finished (lease over) be taken again, and the old holder can no longer complete', async () => {
      const stale = claimed(await store.claim(alice, 'key-1', at(T0)));
      expect((await store.claim(alice, 'key-1', at(T0 + LEASE - 1))).state).to.equal('in-progress');
      const fresh = claimed(await store.claim(alice, 'key-1', at(T0 + LEASE + 1, 'fp-2')));
      expect(await store.complete(alice, 'key-1', stale, { status: 202, body: 'stale' }, { now: T0 + LEASE + 2, ttlMs: TTL })).to.equal(false);
      expect(await store.complete(alice, 'key-1', fresh, { status: 202, body: 'fresh' }, { now: T0 + LEASE + 3, ttlMs: TTL })).to.equal(true);
    });

    it('hands the job of an abandoned claim of the same request to the claim that takes it over, and to no other', async () => {
      const withJob = (now: number, jobId: string, fingerprint = 'fp-1') => ({ ...at(now, fingerprint), jobId });
      const first = await store.claim(alice, 'key-1', withJob(T0, 'job_1_alice'));
      expect(first).to.deep.include({ state: 'claimed', earlierJobId: null });
      // Its holder died after accepting job_1 and before answering: the retry, after the lease, accepts job_1 again.
      const retry = await store.claim(alice, 'key-1', withJob(T0 + LEASE + 1, 'job_2_alice'));
      expect(retry).to.deep.include({ state: 'claimed', earlierJobId: 'job_1_alice' });
      // The retry's holder died too: the job is still the first one.
      expect(await store.claim(alice, 'key-1', withJob(T0 + 2 * LEASE + 2, 'job_3_alice'))).to.deep.include({ earlierJobId: 'job_1_alice' });

      // Another request with the key once the lease is over, a released key, and a claim that named no job get a job of their own.
      expect(await store.claim(alice, 'key-2', withJob(T0, 'job_4_alice'))).to.deep.include({ earlierJobId: null });
      expect(await store.claim(alice, 'key-2', withJob(T0 + LEASE + 1, 'job_5_alice', 'fp-other'))).to.deep.include({ earlierJobId: null });
      const released = claimed(await store.claim(alice, 'key-3', withJob(T0, 'job_6_alice')));
      await store.release(alice, 'key-3', released);
      expect(await store.claim(alice, 'key-3', withJob(T0 + 1, 'job_7_alice'))).to.deep.include({ earlierJobId: null });
      await store.claim(alice, 'key-4', at(T0));
      expect(await store.claim(alice, 'key-4', withJob(T0 + LEASE + 1, 'job_8_alice'))).to.deep.include({ earlierJobId: null });
    });

    it('hands the job of an abandoned claim to the next claim of the same request at once, and to no other', async () => {
      const withJob = (now: number, jobId: string, fingerprint = 'fp-1') => ({ ...at(now, fingerprint), jobId });
      // The log's answer was lost: job_1 may be accepted. A retry a moment later, well within the lease, accepts it again.
      const first = claimed(await store.claim(alice, 'key-1', withJob(T0, 'job_1_alice')));
      await store.abandon(alice, 'key-1', first, T0 + 10);
      const retry = await store.claim(alice, 'key-1', withJob(T0 + 11, 'job_2_alice'));
      expect(retry).to.deep.include({ state: 'claimed', earlierJobId: 'job_1_alice' });
      // The abandoned claim can no longer complete; the retry's can.
      expect(await store.complete(alice, 'key-1', first, { status: 202, body: 'first' }, { now: T0 + 12, ttlMs: TTL })).to.equal(false);
      expect(await store.complete(alice, 'key-1', claimed(retry), { status: 202, body: 'retry' }, { now: T0 + 13, ttlMs: TTL })).to.equal(true);
      // Abandoning a claim already taken over changes nothing.
      await store.abandon(alice, 'key-1', first, T0 + 14);
      expect(await store.claim(alice, 'key-1', at(T0 + 15))).to.deep.include({ state: 'completed', response: { status: 202, body: 'retry' } });
      // Another request with the key gets a job of its own.
      const other = claimed(await store.claim(alice, 'key-2', withJob(T0, 'job_3_alice')));
      await store.abandon(alice, 'key-2', other, T0 + 10);
      expect(await store.claim(alice, 'key-2', withJob(T0 + 11, 'job_4_alice', 'fp-other'))).to.deep.include({ state: 'claimed', earlierJobId: null });
    });

    it('forgets a completed key once its time to live has passed, and removeExpired deletes only expired records', async () => {
      const old = claimed(await store.claim(alice, 'old', at(T0)));
      await store.complete(alice, 'old', old, { status: 202, body: 'old' }, { now: T0, ttlMs: TTL });
      const recent = claimed(await store.claim(alice, 'recent', at(T0 + 12 * HOUR)));
      await store.complete(alice, 'recent', recent, { status: 202, body: 'recent' }, { now: T0 + 12 * HOUR, ttlMs: TTL });

      expect((await store.claim(alice, 'old', at(T0 + TTL - 1))).state, 'just before expiry').to.equal('completed');
      const removed = await store.removeExpired(T0 + TTL + 1);
      expect(removed).to.be.at.least(1);
      // Only 'recent' is left of this user's records.
      expect(await store.forgetUser(alice)).to.equal(1);

      const again = claimed(await store.claim(alice, 'old', at(T0 + TTL + 2)));
      await store.release(alice, 'old', again);
      const expiredUnswept = claimed(await store.claim(alice, 'late', at(T0)));
      await store.complete(alice, 'late', expiredUnswept, { status: 202, body: 'late' }, { now: T0, ttlMs: TTL });
      expect((await store.claim(alice, 'late', at(T0 + TTL + 1))).state, 'an expired record not yet swept counts as absent').to.equal('claimed');
    });

    it('keeps tenants and end users apart: the same key is another key for another end user or tenant', async () => {
      const bob = { ...alice, endUserId: 'bob' };
      const otherTenant = { ...alice, tenantId: `${alice.tenantId}-other` };
      const claim = claimed(await store.claim(alice, 'key-1', at(T0)));
      await store.complete(alice, 'key-1', claim, { status: 202, body: 'alice' }, { now: T0, ttlMs: TTL });
      claimed(await store.claim(bob, 'key-1', at(T0 + 1, 'fp-bob')));
      claimed(await store.claim(otherTenant, 'key-1', at(T0 + 1, 'fp-other-tenant')));
      expect(await store.claim(alice, 'key-1', at(T0 + 2))).to.deep.include({ state: 'completed', response: { status: 202, body: 'alice' } });
    });

    it('forgets one end user, then one tenant, and says how many records went', async () => {
      const bob = { ...alice, endUserId: 'bob' };
      const otherTenant = { tenantId: `${alice.tenantId}-other`, endUserId: 'alice' };
      for (const key of ['a', 'b', 'c']) claimed(await store.claim(alice, key, at(T0)));
      for (const key of ['a', 'b']) claimed(await store.claim(bob, key, at(T0)));
      claimed(await store.claim(otherTenant, 'a', at(T0)));

      expect(await store.forgetUser(alice)).to.equal(3);
      expect(await store.forgetUser(alice)).to.equal(0);
      claimed(await store.claim(alice, 'a', at(T0 + 1)));
      expect((await store.claim(bob, 'a', at(T0 + 1))).state).to.equal('in-progress');

      expect(await store.forgetTenant(alice.tenantId)).to.equal(3);
      expect((await store.claim(otherTenant, 'a', at(T0 + 1))).state, 'a tenant whose id starts like it').to.equal('in-progress');
      claimed(await store.claim(bob, 'a', at(T0 + 2)));
      expect(await store.forgetTenant(otherTenant.tenantId)).to.equal(1);
    });

    it('forgets the records of forgotten jobs, named at the claim or in the answer, of that end user only; their keys are free again', async () => {
      const bob = { ...alice, endUserId: 'bob' };
      const otherTenant = { ...alice, tenantId: `${alice.tenantId}-other` };
      const withJob = (now: number, jobId: string, fingerprint = 'fp-1') => ({ ...at(now, fingerprint), jobId });
      const answer = (jobId: string) => ({ status: 202, body: { status: 'Accepted', jobId } });
      // An ingestion still being answered, and an update (PATCH) whose job id only its answer names.
      claimed(await store.claim(alice, 'ingest', withJob(T0, 'job_1_alice')));
      const update = claimed(await store.claim(alice, 'update', at(T0)));
      await store.complete(alice, 'update', update, answer('upd_job_2_alice'), { now: T0, ttlMs: TTL });
      // Another job of alice's, a claim that names no job yet, and the same job id in another end user's and tenant's records.
      const kept = claimed(await store.claim(alice, 'kept', withJob(T0, 'job_3_alice')));
      await store.complete(alice, 'kept', kept, answer('job_3_alice'), { now: T0, ttlMs: TTL });
      claimed(await store.claim(alice, 'no-job', at(T0)));
      claimed(await store.claim(bob, 'ingest', withJob(T0, 'job_1_alice')));
      claimed(await store.claim(otherTenant, 'ingest', withJob(T0, 'job_1_alice')));

      expect(await store.forgetJobs(alice, ['job_1_alice', 'upd_job_2_alice', 'job_9_alice'])).to.equal(2);
      expect(await store.forgetJobs(alice, ['job_1_alice', 'upd_job_2_alice'])).to.equal(0);

      // The same requests with the same keys are new ones, within the first claim's lease and time to live alike.
      expect(await store.claim(alice, 'ingest', withJob(T0 + 1, 'job_4_alice'))).to.deep.include({ state: 'claimed', earlierJobId: null });
      expect((await store.claim(alice, 'update', at(T0 + 1))).state).to.equal('claimed');
      expect(await store.claim(alice, 'kept', at(T0 + 1))).to.deep.include({ state: 'completed', response: answer('job_3_alice') });
      expect((await store.claim(alice, 'no-job', at(T0 + 1))).state).to.equal('in-progress');
      expect((await store.claim(bob, 'ingest', at(T0 + 1))).state).to.equal('in-progress');
      expect((await store.claim(otherTenant, 'ingest', at(T0 + 1))).state).to.equal('in-progress');
    });

    it('keeps claims and responses across a reopen', async () => {
      const claim = claimed(await store.claim(alice, 'done', at(T0)));
      await store.complete(alice, 'done', claim, { status: 202, body: { jobId: 'job_1_alice' } }, { now: T0, ttlMs: TTL });
      claimed(await store.claim(alice, 'pending', at(T0)));
      store = await harness.reopen();
      expect(await store.claim(alice, 'done', at(T0 + 1))).to.deep.equal({ state: 'completed', fingerprint: 'fp-1', response: { status: 202, body: { jobId: 'job_1_alice' } } });
      expect((await store.claim(alice, 'pending', at(T0 + 1))).state).to.equal('in-progress');
    });
  });
}
