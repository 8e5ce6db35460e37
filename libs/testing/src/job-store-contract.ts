import { expect } from 'chai';
import type { JobRecord, JobStore } from '@memory/ports';
import type { StoreFactory, StoreHarness } from './store-harness.js';
import { uniqueName, waitFor } from './wait-for.js';

function newJob(tenantId: string, jobId: string): JobRecord {
  return {
    jobId,
    tenantId,
    endUserId: 'user-1',
    state: 'Accepted',
    stage: null,
    partCount: null,
    memoryIds: [],
    errorCode: null,
    reason: null,
    acceptedAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
  };
}

/** The behaviour every JobStore adapter must show; each test uses tenants of its own. */
export function describeJobStoreContract(adapterName: string, factory: StoreFactory<JobStore>): void {
  describe(`JobStore contract: ${adapterName}`, function () {
    this.timeout(30_000);
    let harness: StoreHarness<JobStore>;
    let store: JobStore;
    let tenant: string;

    beforeEach(async () => {
      harness = await factory();
      store = harness.store;
      tenant = uniqueName('tenant');
    });

    afterEach(async () => {
      await harness.cleanup();
    });

    it('forgets jobs by id, and erases an end user\'s (or a tenant\'s) jobs accepted before a time', async () => {
      const job = (jobId: string, endUserId: string) => ({ ...newJob(tenant, jobId), endUserId });
      const put = (record: JobRecord) => store.update(tenant, record.jobId, () => record);
      await put(job('job_1700000000001_user-1', 'user-1'));
      await put(job('job_1700000000002_user-1', 'user-1'));
      await put(job('job_1700000000009_user-1', 'user-1'));
      await put(job('job_1700000000001_user-2', 'user-2'));
      expect(await store.forget(tenant, ['job_1700000000001_user-1', 'job_missing'])).to.equal(1);
      expect(await store.get(tenant, 'job_1700000000001_user-1')).to.equal(null);
      expect(await store.erase({ tenantId: tenant, endUserId: 'user-1' }, 1_700_000_000_005)).to.equal(1);
      expect(await store.get(tenant, 'job_1700000000002_user-1')).to.equal(null);
      expect(await store.get(tenant, 'job_1700000000009_user-1'), 'accepted after the erasure').to.not.equal(null);
      expect(await store.get(tenant, 'job_1700000000001_user-2')).to.not.equal(null);
      expect(await store.erase({ tenantId: tenant, endUserId: null }, 1_700_000_000_010)).to.equal(2);
      expect(await store.get(tenant, 'job_1700000000001_user-2')).to.equal(null);
    });

    it('counts jobs by state over every tenant, and keeps a record\'s request id', async () => {
      const before = await store.countByState();
      const put = (jobId: string, state: JobRecord['state']) => store.update(tenant, jobId, () => ({ ...newJob(tenant, jobId), state, requestId: `req-${jobId}` }));
      await Promise.all([put('job-c1', 'Failed'), put('job-c2', 'Failed'), put('job-c3', 'Completed')]);
      const grew = (after: Partial<Record<string, number>>, state: string) => (after[state] ?? 0) - (before[state as JobRecord['state']] ?? 0);
      // A search-based count (Elasticsearch) sees a write after its refresh, within a second.
      await waitFor(async () => {
        const after = await store.countByState();
        return grew(after, 'Failed') >= 2 && grew(after, 'Completed') >= 1;
      }, 'the counts to include the new jobs');
      expect((await store.get(tenant, 'job-c3'))?.requestId).to.equal('req-job-c3');

      await put('job-c2', 'Completed');
      expect(await store.forget(tenant, ['job-c1'])).to.equal(1);
      await waitFor(async () => {
        const after = await store.countByState();
        return grew(after, 'Failed') === 0 && grew(after, 'Completed') === 2;
      }, 'the counts to follow a change of state and a forgotten job');
      expect(await store.erase({ tenantId: tenant, endUserId: null }, Number.MAX_SAFE_INTEGER)).to.be.at.least(2);
      await waitFor(async () => {
        const after = await store.countByState();
        return grew(after, 'Completed') === 0 && grew(after, 'Failed') === 0;
      }, 'the counts to drop the erased jobs');
    });

    it('has no record for an unknown job', async () => {
      expect(await store.get(tenant, 'job-1')).to.equal(null);
    });

    it('creates a job on its first update and changes it on the next', async () => {
      let seen: JobRecord | null | undefined;
      const created = await store.update(tenant, 'job-1', (current) => {
        seen = current;
        return newJob(tenant, 'job-1');
      });
      expect(seen).to.equal(null);
      expect(created).to.deep.equal(newJob(tenant, 'job-1'));
      expect(await store.get(tenant, 'job-1')).to.deep.equal(created);

      const changed = await store.update(tenant, 'job-1', (current) => ({ ...current!, state: 'Processing', stage: 'enricher', updatedAt: current!.updatedAt + 5 }));
      expect(changed.state).to.equal('Processing');
      expect(await store.get(tenant, 'job-1')).to.deep.equal(changed);
    });

    it('gives a change hinted likelyNew the stored record when the job exists, and creates it when not', async () => {
      const first = await store.update(tenant, 'job-hint', () => newJob(tenant, 'job-hint'), { likelyNew: true });
      expect(await store.get(tenant, 'job-hint')).to.deep.equal(first);
      let seen: JobRecord | null | undefined;
      const changed = await store.update(tenant, 'job-hint', (current) => {
        seen = current;
        return { ...(current ?? newJob(tenant, 'job-hint')), partCount: (current?.partCount ?? 0) + 1 };
      }, { likelyNew: true });
      expect(seen, 'the existing record').to.deep.equal(first);
      expect(changed.partCount).to.equal((first.partCount ?? 0) + 1);
      expect(await store.get(tenant, 'job-hint')).to.deep.equal(changed);
    });

    it('loses no update when 50 run at once on one job', async () => {
      const updates = Array.from({ length: 50 }, (_, i) =>
        store.update(tenant, 'job-1', (current) => {
          const job = current ?? newJob(tenant, 'job-1');
          return { ...job, partCount: (job.partCount ?? 0) + 1, memoryIds: [...job.memoryIds, `m${i}`] };
        }),
      );
      const results = await Promise.all(updates);
      expect(results.map((r) => r.partCount).sort((a, b) => a! - b!)).to.deep.equal(Array.from({ length: 50 }, (_, i) => i + 1));
      const final = (await store.get(tenant, 'job-1'))!;
      expect(final.partCount).to.equal(50);
      expect([...final.memoryIds].sort()).to.deep.equal(Array.from({ length: 50 }, (_, i) => `m${i}`).sort());
    });

    it('leaves the job as it was when the change throws, and later updates still work', async () => {
      await store.update(tenant, 'job-1', () => newJob(tenant, 'job-1'));
      const failure = new Error('change refused');
      let caught: unknown;
      await store.update(tenant, 'job-1', () => {
        throw failure;
      }).catch((error: unknown) => (caught = error));
      expect(caught).to.equal(failure);
      expect(await store.get(tenant, 'job-1')).to.deep.equal(newJob(tenant, 'job-1'));
      const next = await store.update(tenant, 'job-1', (current) => ({ ...current!, state: 'Completed' }));
      expect(next.state).to.equal('Completed');
    });

    it('refuses a change that moves the record to another job or tenant', async () => {
      let rejected = false;
      await store.update(tenant, 'job-1', () => newJob(tenant, 'job-2')).catch(() => (rejected = true));
      expect(rejected, 'another job id').to.equal(true);
      rejected = false;
      await store.update(tenant, 'job-1', () => newJob(`${tenant}-other`, 'job-1')).catch(() => (rejected = true));
      expect(rejected, 'another tenant').to.equal(true);
      expect(await store.get(tenant, 'job-1')).to.equal(null);
      expect(await store.get(tenant, 'job-2')).to.equal(null);
    });

    it('keeps tenants apart: the same job id is two jobs', async () => {
      const other = `${tenant}-other`;
      await store.update(tenant, 'job-1', () => ({ ...newJob(tenant, 'job-1'), state: 'Completed' }));
      expect(await store.get(other, 'job-1')).to.equal(null);
      let seen: JobRecord | null | undefined;
      await store.update(other, 'job-1', (current) => {
        seen = current;
        return newJob(other, 'job-1');
      });
      expect(seen).to.equal(null);
      expect((await store.get(tenant, 'job-1'))!.state).to.equal('Completed');
      expect((await store.get(other, 'job-1'))!.state).to.equal('Accepted');
    });

    it('keeps jobs across a reopen', async () => {
      const saved = await store.update(tenant, 'job-1', () => ({ ...newJob(tenant, 'job-1'), memoryIds: ['m0', 'm1'], partCount: 2 }));
      store = await harness.reopen();
      expect(await store.get(tenant, 'job-1')).to.deep.equal(saved);
    });
  });
}
