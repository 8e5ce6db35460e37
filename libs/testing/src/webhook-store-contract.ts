import { expect } from 'chai';
import type { WebhookDelivery, WebhookEndpoint, WebhookStore } from '@memory/ports';
import type { StoreFactory, StoreHarness } from './store-harness.js';
import { uniqueName } from './wait-for.js';

const T0 = 1_800_000_000_000;

/** The behaviour every WebhookStore adapter must show; each test uses tenants of its own. */
export function describeWebhookStoreContract(adapterName: string, factory: StoreFactory<WebhookStore>): void {
  describe(`WebhookStore contract: ${adapterName}`, function () {
    this.timeout(30_000);
    let harness: StoreHarness<WebhookStore>;
    let store: WebhookStore;
    let tenant: string;
    let other: string;

    const endpoint = (id: string, tenantId = tenant, createdAt = T0): WebhookEndpoint => ({
      id,
      tenantId,
      url: `https://example.com/${id}`,
      events: ['job.completed'],
      secrets: [{ secret: `whsec_${id}`, expiresAt: null }],
      createdAt,
    });
    const delivery = (id: string, webhookId: string, nextAttemptAt: number, tenantId = tenant, endUserId = 'ann'): WebhookDelivery => ({
      id,
      tenantId,
      endUserId,
      webhookId,
      eventType: 'job.completed',
      body: `{"type":"job.completed","id":"${id}"}`,
      state: 'pending',
      attempts: 0,
      nextAttemptAt,
      lastStatus: null,
      lastError: null,
      retryUntil: nextAttemptAt + 86_400_000,
      createdAt: nextAttemptAt,
      updatedAt: nextAttemptAt,
    });
    const ours = (list: WebhookDelivery[]) => list.filter((d) => d.tenantId === tenant || d.tenantId === other).map((d) => d.id);

    beforeEach(async () => {
      harness = await factory();
      store = harness.store;
      tenant = uniqueName('tenant');
      other = uniqueName('tenant');
    });

    afterEach(async () => {
      await harness.cleanup();
    });

    it('keeps endpoints per tenant: another tenant neither reads, lists, changes nor deletes them', async () => {
      await store.createEndpoint(endpoint('wh_2', tenant, T0 + 1));
      await store.createEndpoint(endpoint('wh_1', tenant, T0));
      expect(await store.getEndpoint(tenant, 'wh_1')).to.deep.equal(endpoint('wh_1'));
      expect((await store.listEndpoints(tenant)).map((e) => e.id)).to.deep.equal(['wh_1', 'wh_2']);
      expect(await store.getEndpoint(other, 'wh_1')).to.equal(null);
      expect(await store.listEndpoints(other)).to.deep.equal([]);
      expect(await store.updateEndpoint(other, 'wh_1', (e) => ({ ...e, url: 'https://evil.example' }))).to.equal(null);
      expect(await store.deleteEndpoint(other, 'wh_1')).to.equal(false);
      expect((await store.getEndpoint(tenant, 'wh_1'))?.url).to.equal('https://example.com/wh_1');
    });

    it('changes an endpoint atomically: of 10 concurrent rotations none is lost', async () => {
      await store.createEndpoint(endpoint('wh_1'));
      await Promise.all(
        Array.from({ length: 10 }, (_, i) => store.updateEndpoint(tenant, 'wh_1', (e) => ({ ...e, secrets: [{ secret: `s${i}`, expiresAt: null }, ...e.secrets] }))),
      );
      expect((await store.getEndpoint(tenant, 'wh_1'))!.secrets).to.have.length(11);
    });

    it('enqueues a delivery once by id and finds it due at its time, earliest first, across tenants', async () => {
      await store.createEndpoint(endpoint('wh_1'));
      await store.createEndpoint(endpoint('wh_9', other));
      expect(await store.enqueue(delivery('d2', 'wh_1', T0 + 20))).to.equal(true);
      expect(await store.enqueue(delivery('d1', 'wh_9', T0 + 10, other))).to.equal(true);
      expect(await store.enqueue({ ...delivery('d2', 'wh_1', T0 + 5), body: 'second' })).to.equal(false);
      expect((await store.getDelivery(tenant, 'wh_1', 'd2'))!.body).to.not.equal('second');
      expect(ours(await store.due(T0 + 9, 100))).to.deep.equal([]);
      expect(ours(await store.due(T0 + 20, 100))).to.deep.equal(['d1', 'd2']);
      expect(ours(await store.due(T0 + 20, 100, new Set(['wh_9'])))).to.deep.equal(['d2']);
      expect(await store.getDelivery(other, 'wh_1', 'd2')).to.equal(null);
    });

    it('finds the earliest due delivery of each endpoint, skipping busy endpoints, so a backlog hides no one', async () => {
      await store.createEndpoint(endpoint('wh_1'));
      await store.createEndpoint(endpoint('wh_2'));
      for (let i = 0; i < 30; i++) await store.enqueue(delivery(`backlog-${String(i).padStart(2, '0')}`, 'wh_1', T0 + i));
      await store.enqueue(delivery('late', 'wh_2', T0 + 50));
      const ours1 = (await store.due(T0 + 100, 100)).filter((d) => d.tenantId === tenant);
      expect(ours1.map((d) => d.id)).to.deep.equal(['backlog-00', 'late']);
      const notBusy = (await store.due(T0 + 100, 100, new Set(['wh_1']))).filter((d) => d.tenantId === tenant);
      expect(notBusy.map((d) => d.id)).to.deep.equal(['late']);
    });

    it('moves a delivery in and out of the due queue as it is updated', async () => {
      await store.createEndpoint(endpoint('wh_1'));
      await store.enqueue(delivery('d1', 'wh_1', T0));
      await store.updateDelivery(tenant, 'wh_1', 'd1', (d) => ({ ...d, attempts: 1, nextAttemptAt: T0 + 1_000, lastStatus: 500 }));
      expect(ours(await store.due(T0 + 999, 100))).to.deep.equal([]);
      expect(ours(await store.due(T0 + 1_000, 100))).to.deep.equal(['d1']);
      const unchanged = await store.updateDelivery(tenant, 'wh_1', 'd1', () => null);
      expect(unchanged!.attempts).to.equal(1);
      await store.updateDelivery(tenant, 'wh_1', 'd1', (d) => ({ ...d, state: 'delivered', nextAttemptAt: null, lastStatus: 200 }));
      expect(ours(await store.due(T0 + 10_000_000, 100))).to.deep.equal([]);
      expect(await store.getDelivery(tenant, 'wh_1', 'd1')).to.deep.include({ state: 'delivered', lastStatus: 200, attempts: 1 });
    });

    it('lists an endpoint deliveries newest first, and deleting the endpoint removes them from the log and the queue', async () => {
      await store.createEndpoint(endpoint('wh_1'));
      await store.createEndpoint(endpoint('wh_2'));
      for (const [i, id] of ['a', 'b', 'c'].entries()) await store.enqueue(delivery(id, 'wh_1', T0 + i));
      await store.enqueue(delivery('z', 'wh_2', T0));
      expect((await store.listDeliveries(tenant, 'wh_1', 2)).map((d) => d.id)).to.deep.equal(['c', 'b']);
      expect(await store.deleteEndpoint(tenant, 'wh_1')).to.equal(true);
      expect(await store.listDeliveries(tenant, 'wh_1', 10)).to.deep.equal([]);
      expect(ours(await store.due(T0 + 10, 100))).to.deep.equal(['z']);
      expect(await store.deleteEndpoint(tenant, 'wh_1')).to.equal(false);
    });

    it('forgets the deliveries about one end user created before the erasure, and no one else\'s', async () => {
      await store.createEndpoint(endpoint('wh_1'));
      await store.createEndpoint(endpoint('wh_2'));
      await store.createEndpoint(endpoint('wh_9', other));
      await store.enqueue(delivery('ann-1', 'wh_1', T0));
      await store.enqueue(delivery('ann-2', 'wh_2', T0 + 1));
      await store.enqueue(delivery('ann-after', 'wh_1', T0 + 10));
      await store.enqueue(delivery('bob-1', 'wh_1', T0, tenant, 'bob'));
      await store.enqueue(delivery('ann-other-tenant', 'wh_9', T0, other));
      expect(await store.forgetUser({ tenantId: tenant, endUserId: 'ann' }, T0 + 10)).to.equal(2);
      expect((await store.listDeliveries(tenant, 'wh_1', 10)).map((d) => d.id)).to.deep.equal(['ann-after', 'bob-1']);
      expect(await store.listDeliveries(tenant, 'wh_2', 10)).to.deep.equal([]);
      expect((await store.listDeliveries(other, 'wh_9', 10)).map((d) => d.id)).to.deep.equal(['ann-other-tenant']);
      expect(ours(await store.due(T0 + 100, 100)).sort()).to.deep.equal(['ann-other-tenant', 'bob-1']);
      expect(await store.forgetUser({ tenantId: tenant, endUserId: 'ann' }, T0 + 10)).to.equal(0);
    });

    it('forgets, at an erasure, the deliveries about the jobs accepted before it, also those enqueued after it', async () => {
      await store.createEndpoint(endpoint('wh_1'));
      const erasureAt = T0 + 10;
      const about = (id: string, jobId: string): WebhookDelivery => ({ ...delivery(id, 'wh_1', T0 + 20), jobId });
      await store.enqueue(about('accepted-before', `job_${T0 + 5}_ann`));
      await store.enqueue(about('accepted-after', `job_${T0 + 15}_ann`));
      await store.enqueue(about('the-erasure', `del_job_${erasureAt}_ann`));
      expect(await store.forgetUser({ tenantId: tenant, endUserId: 'ann' }, erasureAt)).to.equal(1);
      expect((await store.listDeliveries(tenant, 'wh_1', 10)).map((d) => d.id).sort()).to.deep.equal(['accepted-after', 'the-erasure']);
    });

    it('forgets the deliveries about forgotten jobs of one end user, also those that name their job in the body only', async () => {
      await store.createEndpoint(endpoint('wh_1'));
      await store.createEndpoint(endpoint('wh_2'));
      const job = 'doc_job_1800000000000_ann';
      await store.enqueue({ ...delivery('completed', 'wh_1', T0), jobId: job });
      await store.enqueue({ ...delivery('completed-elsewhere', 'wh_2', T0), jobId: job });
      // Stored before deliveries kept their job: the body names it.
      await store.enqueue({ ...delivery('older', 'wh_1', T0 + 1), body: JSON.stringify({ type: 'job.failed', data: { jobId: job } }) });
      await store.enqueue({ ...delivery('other-job', 'wh_1', T0 + 2), jobId: 'job_1800000000001_ann' });
      await store.enqueue({ ...delivery('other-user', 'wh_1', T0 + 3, tenant, 'bob'), jobId: job });
      expect(await store.forgetJobs({ tenantId: tenant, endUserId: 'ann' }, [job])).to.equal(3);
      expect((await store.listDeliveries(tenant, 'wh_1', 10)).map((d) => d.id)).to.deep.equal(['other-user', 'other-job']);
      expect(await store.listDeliveries(tenant, 'wh_2', 10)).to.deep.equal([]);
      expect(await store.forgetJobs({ tenantId: tenant, endUserId: 'ann' }, [job])).to.equal(0);
      expect(await store.forgetJobs({ tenantId: tenant, endUserId: 'ann' }, [])).to.equal(0);
    });

    it('sweeps delivered and failed deliveries created before the retention cut, never pending ones', async () => {
      await store.createEndpoint(endpoint('wh_1'));
      await store.createEndpoint(endpoint('wh_9', other));
      for (const [id, state, at, tenantId] of [
        ['old-delivered', 'delivered', T0, tenant], ['old-failed', 'failed', T0, tenant], ['old-pending', 'pending', T0, tenant],
        ['new-delivered', 'delivered', T0 + 100, tenant], ['other-old', 'delivered', T0, other],
      ] as const) {
        await store.enqueue(delivery(id, tenantId === tenant ? 'wh_1' : 'wh_9', at, tenantId));
        if (state !== 'pending') await store.updateDelivery(tenantId, tenantId === tenant ? 'wh_1' : 'wh_9', id, (d) => ({ ...d, state, nextAttemptAt: null }));
      }
      await store.removeSettledBefore(T0 + 50);
      expect((await store.listDeliveries(tenant, 'wh_1', 10)).map((d) => d.id).sort()).to.deep.equal(['new-delivered', 'old-pending']);
      expect(await store.listDeliveries(other, 'wh_9', 10)).to.deep.equal([]);
    });

    it('forgets a whole tenant, endpoints and deliveries, and no other', async () => {
      await store.createEndpoint(endpoint('wh_1'));
      await store.createEndpoint(endpoint('wh_9', other));
      await store.enqueue(delivery('d1', 'wh_1', T0));
      await store.enqueue(delivery('d9', 'wh_9', T0, other));
      expect(await store.forgetTenant(tenant)).to.equal(2);
      expect(await store.listEndpoints(tenant)).to.deep.equal([]);
      expect(ours(await store.due(T0, 100))).to.deep.equal(['d9']);
      expect(await store.listEndpoints(other)).to.have.length(1);
    });
  });
}
