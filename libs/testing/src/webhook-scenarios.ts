import { expect } from 'chai';
import { verifyWebhook } from '@memory/sdk';
import { caller, waitForJob } from './http-caller.js';
import type { ServiceUnderTest } from './memory-api-scenarios.js';
import { TEST_KEYS as KEYS } from './service-process.js';
import { uniqueName, waitFor } from './wait-for.js';
import { Receiver, type Received } from './webhook-receiver.js';

/** The environment the webhook scenarios need: targets on 127.0.0.1, and retries a test can wait for. */
export const WEBHOOK_TEST_ENV = { MEMORY_WEBHOOKS_ALLOW_PRIVATE: 'true', MEMORY_WEBHOOK_RETRY_INITIAL_MS: '300' };

/** Verifies a request as a receiver would, with the SDK's Standard Webhooks check (itself checked against the specification's example). */
function verify(received: Received, secret: string): Promise<boolean> {
  return verifyWebhook({ secret, headers: received.headers, body: received.body }).then(() => true, () => false);
}

/** Signed webhooks on both modes: registration, signatures, retries, deletion, tenancy, forgetting events, refusals. */
export function describeWebhookScenarios(title: string, service: ServiceUnderTest & { restart?(): Promise<void> }): void {
  describe(title, function () {
    this.timeout(120_000);
    const receivers: Receiver[] = [];
    const acme = () => caller(service, KEYS.acme, null);
    const receiver = async (statuses: number[] = []) => {
      const made = new Receiver(statuses);
      receivers.push(made);
      return { made, url: await made.start() };
    };
    const register = async (url: string, events: string[]) => {
      const created = await acme().post('/v1/webhooks', { url, events });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      return created.body as { id: string; url: string; events: string[]; secret: string; createdAt: string };
    };
    const ingest = async (endUserId: string, content: string) => {
      const accepted = await caller(service, KEYS.acme, endUserId).post('/v1/memory', { source: { type: 'text', content } });
      expect(accepted.status, JSON.stringify(accepted.body)).to.equal(202);
      return accepted.body.jobId as string;
    };

    before(() => service.start());
    after(async () => {
      await Promise.all(receivers.map((r) => r.stop()));
      await service.stop();
    });

    it('registers an endpoint (the secret shown once), lists it without secrets, and refuses bad ones', async () => {
      const { url } = await receiver();
      const created = await register(url, ['job.completed', 'job.failed']);
      expect(created.id).to.match(/^wh_/);
      expect(created.secret).to.match(/^whsec_[A-Za-z0-9+/]{32}$/);
      expect(created).to.deep.include({ url, events: ['job.completed', 'job.failed'] });
      const listed = await acme().get('/v1/webhooks');
      expect(listed.status).to.equal(200);
      const mine = listed.body.data.find((endpoint: { id: string }) => endpoint.id === created.id);
      expect(mine).to.deep.equal({ id: created.id, url, events: ['job.completed', 'job.failed'], createdAt: created.createdAt });
      expect(JSON.stringify(listed.body)).to.not.include(created.secret);

      const refused = async (body: unknown, code: string) => {
        const answer = await acme().post('/v1/webhooks', body);
        expect(answer.status, JSON.stringify(answer.body)).to.equal(400);
        expect(answer.body.error.code).to.equal(code);
      };
      await refused({ url: 'ftp://example.com/x', events: ['job.completed'] }, 'WEBHOOK.INVALID_URL');
      await refused({ url, events: ['job.exploded'] }, 'WEBHOOK.UNKNOWN_EVENT');
      await refused({ url, events: [] }, 'WEBHOOK.UNKNOWN_EVENT');
      await refused({ url, events: ['job.completed'], colour: 'red' }, 'REQUEST.INVALID_FIELD');
    });

    it('delivers job.completed for an ingest, signed (Standard Webhooks), with ids and no content', async () => {
      const { made, url } = await receiver();
      const { secret, id } = await register(url, ['job.completed']);
      const word = uniqueName('pelican');
      const jobId = await ingest('whalice', `I saw a ${word} at the harbour`);
      await waitFor(() => made.events('job.completed').some((event) => event.data.jobId === jobId), 'job.completed delivered', 60_000);
      const delivered = made.received.find((r) => JSON.parse(r.body).data.jobId === jobId)!;
      expect(await verify(delivered, secret), 'signature').to.equal(true);
      expect(delivered.headers['content-type']).to.equal('application/json');
      const body = JSON.parse(delivered.body);
      expect(body.type).to.equal('job.completed');
      expect(new Date(body.timestamp).toISOString()).to.equal(body.timestamp);
      expect(body.data).to.deep.equal({ jobId, status: 'Completed', endUserId: 'whalice', memoryIds: [`mem_${jobId}_0`] });
      expect(delivered.body).to.not.include(word);

      // The receiver answers before the service records the answer.
      const logged = async () => (await acme().get(`/v1/webhooks/${id}/deliveries`)).body.data.find((d: { id: string }) => d.id === delivered.headers['webhook-id']);
      await waitFor(async () => (await logged())?.state === 'delivered', 'delivery logged', 10_000);
      const entry = await logged();
      expect(entry).to.deep.include({ eventType: 'job.completed', state: 'delivered', attempts: 1, lastStatus: 200, lastError: null, nextAttemptAt: null });
    });

    it('retries an endpoint that answers 500 twice, with backoff, and delivers on the third attempt; redelivery sends it again', async () => {
      const { made, url } = await receiver([500, 500]);
      const { id, secret } = await register(url, ['job.completed']);
      const jobId = await ingest('whbob', 'a note about retries');
      await waitFor(() => made.events('job.completed').filter((event) => event.data.jobId === jobId).length === 3, 'three attempts', 60_000);
      const ids = new Set(made.received.map((r) => r.headers['webhook-id']));
      expect(ids.size, 'the same webhook-id on every attempt').to.equal(1);
      expect(await Promise.all(made.received.map((r) => verify(r, secret)))).to.not.include(false);
      const deliveryId = [...ids][0] as string;
      await waitFor(async () => (await acme().get(`/v1/webhooks/${id}/deliveries`)).body.data[0]?.state === 'delivered', 'delivered state', 10_000);
      const [entry] = (await acme().get(`/v1/webhooks/${id}/deliveries`)).body.data;
      expect(entry).to.deep.include({ id: deliveryId, state: 'delivered', attempts: 3, lastStatus: 200 });

      const again = await acme().post(`/v1/webhooks/${id}/deliveries/${deliveryId}/redeliver`, undefined);
      expect(again.status, JSON.stringify(again.body)).to.equal(202);
      await waitFor(() => made.received.length === 4, 'redelivered', 30_000);
      expect(made.received[3]!.headers['webhook-id']).to.equal(deliveryId);
      expect((await acme().post(`/v1/webhooks/${id}/deliveries/msg_nope/redeliver`, undefined)).body.error.code).to.equal('WEBHOOK.DELIVERY_NOT_FOUND');
    });

    it('keeps a pending delivery across a restart of the service and delivers it after', async function () {
      if (!service.restart) return this.skip();
      const { made, url } = await receiver();
      made.down = true;
      const { id } = await register(url, ['job.completed']);
      const jobId = await ingest('whgrace', 'a note sent across a restart');
      await waitFor(() => made.events('job.completed').some((event) => event.data.jobId === jobId), 'a first attempt', 60_000);
      await service.restart();
      made.down = false;
      await waitFor(() => made.received.length >= 2 && made.received.at(-1)!.body.includes(jobId), 'the attempt after the restart', 60_000);
      await waitFor(async () => (await acme().get(`/v1/webhooks/${id}/deliveries`)).body.data[0]?.state === 'delivered', 'delivered state', 10_000);
      const [entry] = (await acme().get(`/v1/webhooks/${id}/deliveries`)).body.data;
      expect(entry.attempts).to.be.at.least(2);
      expect(new Set(made.received.map((r) => r.headers['webhook-id'])).size, 'one delivery, attempted again').to.equal(1);
    });

    it('signs with the old and the new secret after a rotation', async () => {
      const { made, url } = await receiver();
      const { id, secret: old } = await register(url, ['job.completed']);
      const rotated = await acme().post(`/v1/webhooks/${id}/rotate-secret`, undefined);
      expect(rotated.status, JSON.stringify(rotated.body)).to.equal(200);
      expect(rotated.body.secret).to.match(/^whsec_/).and.not.equal(old);
      const jobId = await ingest('whcarol', 'a note after a rotation');
      await waitFor(() => made.events('job.completed').some((event) => event.data.jobId === jobId), 'delivered', 60_000);
      expect(await verify(made.received[0]!, rotated.body.secret), 'new secret').to.equal(true);
      expect(await verify(made.received[0]!, old), 'old secret in its grace period').to.equal(true);
    });

    it('sends nothing more to a deleted webhook', async () => {
      const { made, url } = await receiver();
      const { id } = await register(url, ['job.completed']);
      expect((await acme().delete(`/v1/webhooks/${id}`)).status).to.equal(204);
      expect((await acme().get(`/v1/webhooks/${id}`)).status).to.equal(404);
      expect((await acme().delete(`/v1/webhooks/${id}`)).body.error.code).to.equal('WEBHOOK.NOT_FOUND');
      // A second endpoint hears the job, so the first has had every chance to hear it too.
      const witness = await receiver();
      await register(witness.url, ['job.completed']);
      const jobId = await ingest('whdave', 'a note nobody should hear of');
      await waitFor(() => witness.made.events('job.completed').some((event) => event.data.jobId === jobId), 'witness delivered', 60_000);
      expect(made.received).to.deep.equal([]);
    });

    it("keeps another tenant's webhooks invisible (404 like never-existed) and never sends it this tenant's events", async () => {
      const { made, url } = await receiver();
      const globex = caller(service, KEYS.globex, null);
      const theirs = await globex.post('/v1/webhooks', { url, events: ['job.completed'] });
      expect(theirs.status).to.equal(201);
      const missing = await acme().get('/v1/webhooks/wh_never_existed');
      for (const path of [`/v1/webhooks/${theirs.body.id}`, `/v1/webhooks/${theirs.body.id}/deliveries`]) {
        const answer = await acme().get(path);
        expect(answer.status).to.equal(404);
        expect(answer.body.error.code).to.equal(missing.body.error.code);
      }
      expect((await acme().delete(`/v1/webhooks/${theirs.body.id}`)).status).to.equal(404);
      expect((await acme().post(`/v1/webhooks/${theirs.body.id}/rotate-secret`, undefined)).status).to.equal(404);
      expect((await acme().get('/v1/webhooks')).body.data.map((e: { id: string }) => e.id)).to.not.include(theirs.body.id);
      const witness = await receiver();
      await register(witness.url, ['job.completed']);
      const jobId = await ingest('wheve', 'acme only');
      await waitFor(() => witness.made.events('job.completed').some((event) => event.data.jobId === jobId), 'witness delivered', 60_000);
      expect(made.received.filter((r) => r.body.includes(jobId))).to.deep.equal([]);
    });

    it('announces memory.updated, memory.deleted and user.erased with ids and no content', async () => {
      const { made, url } = await receiver();
      const { id: webhookId, secret } = await register(url, ['memory.updated', 'memory.deleted', 'user.erased']);
      const user = caller(service, KEYS.acme, 'whfrank');
      const word = uniqueName('okapi');
      const jobId = await ingest('whfrank', `my ${word} is called Bruno`);
      await waitForJob(user, jobId);
      const memoryId = `mem_${jobId}_0`;
      const updated = await user.patch(`/v1/memories/${memoryId}`, { content: `my ${word} is called Brunhilde` });
      expect(updated.status, JSON.stringify(updated.body)).to.equal(202);
      await waitForJob(user, updated.body.jobId);
      // Heard before the memory is deleted: the update job goes with its memory, and a job forgotten before the
      // dispatcher reads its end is announced to no one.
      await waitFor(() => made.events('memory.updated').length > 0, 'memory.updated', 30_000);
      const deleted = await user.delete(`/v1/memories/${memoryId}`);
      expect(deleted.status, JSON.stringify(deleted.body)).to.equal(202);
      await waitForJob(user, deleted.body.jobId);
      // Heard before the erasure: an erasure drops what is still pending about the user (user.erased says it all).
      await waitFor(() => made.events('memory.deleted').length > 0 && made.events('memory.updated').length > 0, 'memory events', 30_000);
      const erased = await user.delete('/v1/users/whfrank');
      expect(erased.status, JSON.stringify(erased.body)).to.equal(202);
      await waitFor(() => made.events('user.erased').some((event) => event.data.jobId === erased.body.jobId), 'user.erased', 60_000);
      expect(made.events('memory.updated')[0]!.data).to.deep.equal({ jobId: updated.body.jobId, status: 'Completed', endUserId: 'whfrank', memoryIds: [memoryId] });
      expect(made.events('memory.deleted')[0]!.data).to.deep.equal({ jobId: deleted.body.jobId, status: 'Completed', endUserId: 'whfrank', memoryIds: [memoryId] });
      expect(made.events('user.erased')[0]!.data).to.deep.include({ jobId: erased.body.jobId, status: 'Completed', endUserId: 'whfrank' });
      expect(made.events('job.completed')).to.deep.equal([]);
      // The delivery log keeps nothing about the erased user's earlier jobs: only the erasure's own event is left.
      const erasure = await waitForJob(user, erased.body.jobId);
      expect(erasure.receipt.removed.find((r: { store: string }) => r.store === 'webhooks')?.count).to.be.at.least(2);
      await waitFor(async () => (await acme().get(`/v1/webhooks/${webhookId}/deliveries`)).body.data.length === 1, 'delivery log without the earlier jobs', 30_000);
      expect((await acme().get(`/v1/webhooks/${webhookId}/deliveries`)).body.data.map((d: { eventType: string }) => d.eventType)).to.deep.equal(['user.erased']);
      for (const received of made.received) {
        expect(received.body).to.not.match(new RegExp(`${word}|Bruno`));
        expect(await verify(received, secret)).to.equal(true);
      }
    });

    it('removes the deliveries about a job whose memories are deleted (DELETE by job_id): only the deletion\'s own are left', async () => {
      const { made, url } = await receiver();
      const { id: webhookId } = await register(url, ['job.completed', 'memory.deleted']);
      const user = caller(service, KEYS.acme, 'whhenry');
      const jobId = await ingest('whhenry', 'a note whose delivery goes with it');
      await waitFor(() => made.events('job.completed').some((event) => event.data.jobId === jobId), 'job.completed delivered', 60_000);
      const ingestDelivery = made.forJob(jobId)[0]!.headers['webhook-id'];
      const deleted = await user.delete(`/v1/memories?job_id=${jobId}`);
      expect(deleted.status, JSON.stringify(deleted.body)).to.equal(202);
      const deletion = await waitForJob(user, deleted.body.jobId);
      expect(deletion.receipt.removed.find((r: { store: string }) => r.store === 'webhooks')?.count, 'the ingest\'s job.completed, one per endpoint').to.be.at.least(1);
      await waitFor(() => made.events('memory.deleted').some((event) => event.data.jobId === deleted.body.jobId), 'memory.deleted', 60_000);
      const log = (await acme().get(`/v1/webhooks/${webhookId}/deliveries`)).body.data as Array<{ id: string; eventType: string }>;
      expect(log.map((d) => d.id)).to.not.include(ingestDelivery);
      expect(log.map((d) => d.eventType).sort()).to.deep.equal(['job.completed', 'memory.deleted']);
    });
  });
}

/** The refusal of private targets when MEMORY_WEBHOOKS_ALLOW_PRIVATE is off (the default). */
export function describeWebhookTargetRefusal(title: string, service: ServiceUnderTest): void {
  describe(title, function () {
    this.timeout(60_000);
    before(() => service.start());
    after(() => service.stop());

    it('refuses loopback, private, link-local and unspecified targets, also behind a host name', async () => {
      for (const url of ['http://127.0.0.1:9/hook', 'http://localhost:9/hook', 'http://10.0.0.8/hook', 'http://192.168.1.20/hook', 'http://169.254.169.254/latest/meta-data', 'http://[::1]/hook', 'http://[fd00::1]/hook', 'http://0.0.0.0/hook']) {
        const answer = await caller(service, KEYS.acme, null).post('/v1/webhooks', { url, events: ['job.completed'] });
        expect(answer.status, url).to.equal(400);
        expect(answer.body.error.code, url).to.equal('WEBHOOK.PRIVATE_TARGET');
      }
      expect((await caller(service, KEYS.acme, null).get('/v1/webhooks')).body.data).to.deep.equal([]);
    });
  });
}
