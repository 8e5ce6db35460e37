import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { memoryIdOf } from '@memory/contracts';
import { openEmbeddedVectorStores } from '@memory/vectors-embedded';
import { STAGE_NAMES } from '@memory/composition';
import { caller, ServiceProcess, TEST_KEYS, waitForDrain } from '@memory/testing';
import { runCli } from './run-cli.js';

const MEMORYD = fileURLToPath(new URL('../../memoryd/src/main.ts', import.meta.url));

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]));

describe('replay tooling on the embedded log', function () {
  this.timeout(180_000);
  // Webhooks to 127.0.0.1 (nobody answers there) only to see erase-tenant remove a tenant's endpoints.
  const service = new ServiceProcess({ entry: MEMORYD, env: { MEMORY_WEBHOOKS_ALLOW_PRIVATE: 'true' } });
  /** Every consumer group back to the earliest offset (the service stopped), then the service started and drained. */
  const replayEveryGroup = async (env: Record<string, string>) => {
    for (const group of STAGE_NAMES) {
      const reset = await runCli(['reset-group', group, 'earliest'], env);
      expect(reset.code, reset.output).to.equal(0);
    }
    await service.start();
    await waitForDrain(service);
  };
  after(async () => {
    await service.stop();
    service.cleanup();
  });

  it('rebuild brings back a memory lost from the vector store, from the log', async () => {
    await service.start();
    const api = caller(service, TEST_KEYS.acme, 'erin');
    const ack = await api.post('/v1/memory', { source: { type: 'text', content: 'I keep the spare house key under the blue flower pot' } });
    await waitForDrain(service);
    await service.stop();

    // The store loses the memory (a projection can be dropped); the log still has it.
    const memoryId = memoryIdOf(ack.body.jobId, 0);
    const scope = { tenantId: 'acme', endUserId: 'erin' };
    const stores = openEmbeddedVectorStores({ dir: join(service.dataDir, 'vectors') });
    expect(await stores.vectors.delete(scope, [memoryId])).to.equal(1);
    await stores.close();

    const env = { MEMORY_DATA_DIR: service.dataDir };
    expect((await runCli(['lag'], env)).output).to.match(/dual-writer\s+0 records behind/);
    const rebuilt = await runCli(['rebuild', 'vectors'], env);
    expect(rebuilt.code, rebuilt.output).to.equal(0);
    expect(rebuilt.output).to.include('dual-writer on memory.enriched: moved to earliest');
    expect((await runCli(['lag'], env)).output).to.match(/dual-writer\s+1 records behind/);

    await service.start();
    await waitForDrain(service);
    const found = await api.post('/v1/search', { query: 'where is the spare key?' });
    expect(found.body.data.map((m: { id: string }) => m.id)).to.include(memoryId);
    await service.stop();
  });

  it('a replay of every group from the earliest offset does not bring back what was forgotten', async () => {
    await service.start();
    const api = caller(service, TEST_KEYS.acme, 'fern');
    const gone = await api.post('/v1/memory', { source: { type: 'text', content: 'Fern buried the tin of gooseberryglitter coins by the old oak' } });
    const kept = await api.post('/v1/memory', { source: { type: 'text', content: 'Fern keeps the garden shears in the shed' } });
    const erased = caller(service, TEST_KEYS.acme, 'gus');
    await erased.post('/v1/memory', { source: { type: 'text', content: 'Gus hid the quinceharmonica behind the boiler' } });
    await waitForDrain(service);
    // An update of the memory, whose status reports (sealed with the update job's own key) name it, sent to an
    // endpoint (nobody answers there) as memory.updated.
    const tenant = caller(service, TEST_KEYS.acme, null);
    const endpoint = await tenant.post('/v1/webhooks', { url: 'http://127.0.0.1:9/updated', events: ['memory.updated'] });
    expect(endpoint.status, JSON.stringify(endpoint.body)).to.equal(201);
    const deliveries = async () => ((await tenant.get(`/v1/webhooks/${endpoint.body.id}/deliveries`)).body.data as unknown[]).length;
    const update = await api.patch(`/v1/memories/${memoryIdOf(gone.body.jobId, 0)}`, { content: 'Fern buried the tin of gooseberryglitter coins by the young elm' });
    expect(update.status, JSON.stringify(update.body)).to.equal(202);
    await waitForDrain(service);
    expect((await api.delete(`/v1/memories/${memoryIdOf(gone.body.jobId, 0)}`)).status).to.equal(202);
    expect((await erased.delete('/v1/users/gus')).status).to.equal(202);
    await waitForDrain(service);
    const deliveriesBefore = await deliveries();
    await service.stop();

    const env = { MEMORY_DATA_DIR: service.dataDir };
    await replayEveryGroup(env);
    const found = async (who: typeof api, query: string) => (await who.post('/v1/search', { query, options: { limit: 20 } })).body.data.map((m: { id: string }) => m.id);
    expect(await found(api, 'gooseberryglitter coins oak tin')).to.not.include(memoryIdOf(gone.body.jobId, 0));
    expect(await found(api, 'garden shears shed')).to.include(memoryIdOf(kept.body.jobId, 0));
    expect(await found(erased, 'quinceharmonica boiler')).to.deep.equal([]);
    expect((await api.get(`/v1/jobs/${gone.body.jobId}`)).status).to.equal(404);
    expect((await api.get(`/v1/jobs/${update.body.jobId}`)).status, 'the update of the forgotten memory').to.equal(404);
    expect(await deliveries(), 'no memory.updated enqueued again for the forgotten memory').to.equal(deliveriesBefore);
    expect((await tenant.delete(`/v1/webhooks/${endpoint.body.id}`)).status).to.equal(204);
    await service.stop();
    const bytes = Buffer.concat(filesUnder(service.dataDir).map((file) => readFileSync(file)));
    for (const word of ['gooseberryglitter', 'quinceharmonica']) expect(bytes.includes(Buffer.from(word)), word).to.equal(false);
    expect(bytes.includes(Buffer.from('acme/fern')), 'the bytes read are the service\'s').to.equal(true);
  });

  it('a replay re-emits a job\'s reports, and an endpoint registered after the job ended is still sent none of its events', async () => {
    await service.start();
    const api = caller(service, TEST_KEYS.acme, 'hana');
    const endedBefore = await api.post('/v1/memory', { source: { type: 'text', content: 'Hana repotted the fig tree on the balcony' } });
    await waitForDrain(service);
    const tenant = caller(service, TEST_KEYS.acme, null);
    const endpoint = await tenant.post('/v1/webhooks', { url: 'http://127.0.0.1:9/replayed', events: ['job.completed'] });
    expect(endpoint.status, JSON.stringify(endpoint.body)).to.equal(201);
    await api.post('/v1/memory', { source: { type: 'text', content: 'Hana booked a pottery class for Thursday' } });
    await waitForDrain(service);
    const deliveries = async () => (await tenant.get(`/v1/webhooks/${endpoint.body.id}/deliveries`)).body.data as unknown[];
    expect(await deliveries(), 'the job that ended after the endpoint was registered').to.have.length(1);
    await service.stop();

    await replayEveryGroup({ MEMORY_DATA_DIR: service.dataDir });
    expect((await api.get(`/v1/jobs/${endedBefore.body.jobId}`)).body.status).to.equal('Completed');
    expect(await deliveries(), 'nothing for the job that had ended before it').to.have.length(1);
    expect((await tenant.delete(`/v1/webhooks/${endpoint.body.id}`)).status).to.equal(204);
    await service.stop();
  });

  it('erase-tenant forgets every end user of one tenant, and nothing of another', async () => {
    await service.start();
    const acme = (user: string) => caller(service, TEST_KEYS.acme, user);
    const globex = caller(service, TEST_KEYS.globex, 'hal');
    await acme('ida').post('/v1/memory', { source: { type: 'text', content: 'Ida parked the narwhalscooter at the station' } });
    await acme('jon').post('/v1/memory', { source: { type: 'text', content: 'Jon ordered the yakpudding for Sunday' } });
    await globex.post('/v1/memory', { source: { type: 'text', content: 'Hal keeps the lemurcompass on his desk' } });
    for (const key of [TEST_KEYS.acme, TEST_KEYS.globex]) {
      const registered = await caller(service, key, null).post('/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['user.erased'] });
      expect(registered.status, JSON.stringify(registered.body)).to.equal(201);
    }
    await waitForDrain(service);
    await service.stop();

    const erased = await runCli(['erase-tenant', 'acme'], { MEMORY_DATA_DIR: service.dataDir });
    expect(erased.code, erased.output).to.equal(0);
    const jobs = erased.output.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { status: string; jobId: string });
    const erasedUsers = jobs.map((job) => /^del_job_\d+_(.+)$/.exec(job.jobId)![1]);
    expect(erasedUsers).to.include.members(['ida', 'jon']);
    expect(jobs.every((job) => job.status === 'Accepted')).to.equal(true);

    await service.start();
    await waitForDrain(service);
    for (const job of jobs) {
      const record = await acme(/^del_job_\d+_(.+)$/.exec(job.jobId)![1]!).get(`/v1/jobs/${job.jobId}`);
      expect(record.body.status, JSON.stringify(record.body)).to.equal('Completed');
    }
    const found = async (who: ReturnType<typeof acme>, query: string) => (await who.post('/v1/search', { query, options: { limit: 20 } })).body.data;
    expect(await found(acme('ida'), 'narwhalscooter station')).to.deep.equal([]);
    expect(await found(acme('jon'), 'yakpudding Sunday')).to.deep.equal([]);
    expect(await found(globex, 'lemurcompass desk')).to.have.length(1);
    expect((await caller(service, TEST_KEYS.acme, null).get('/v1/webhooks')).body.data).to.deep.equal([]);
    expect((await caller(service, TEST_KEYS.globex, null).get('/v1/webhooks')).body.data).to.have.length(1);
    await service.stop();
    const bytes = Buffer.concat(filesUnder(service.dataDir).map((file) => readFileSync(file)));
    for (const word of ['narwhalscooter', 'yakpudding']) expect(bytes.includes(Buffer.from(word)), word).to.equal(false);
  });

  it('a replay of every group, and a rebuild of the vector store, end at the same version of an updated memory', async () => {
    await service.start();
    const api = caller(service, TEST_KEYS.acme, 'hana');
    const ack = await api.post('/v1/memory', { source: { type: 'text', content: 'Hana keeps the canoe at the north jetty' } });
    const memoryId = memoryIdOf(ack.body.jobId, 0);
    await waitForDrain(service);
    for (const content of ['Hana keeps the canoe at the south jetty', 'Hana keeps the canoe in the boathouse']) {
      expect((await api.patch(`/v1/memories/${memoryId}`, { content })).status).to.equal(202);
    }
    await waitForDrain(service);
    const read = async () => {
      const [memory, history] = await Promise.all([api.get(`/v1/memories/${memoryId}`), api.get(`/v1/memories/${memoryId}/history`)]);
      return { version: memory.body.payload.version, content: memory.body.payload.original_content, history: history.body.data };
    };
    const before = await read();
    expect([before.version, before.content]).to.deep.equal([3, 'Hana keeps the canoe in the boathouse']);
    await service.stop();

    const env = { MEMORY_DATA_DIR: service.dataDir };
    await replayEveryGroup(env);
    expect(await read(), 'after every group replayed over the live stores').to.deep.equal(before);
    await service.stop();

    // The vector store loses the memory; the dual-writer's replay rebuilds it, every version in log order.
    const stores = openEmbeddedVectorStores({ dir: join(service.dataDir, 'vectors') });
    expect(await stores.vectors.delete({ tenantId: 'acme', endUserId: 'hana' }, [memoryId])).to.equal(1);
    await stores.close();
    const rebuilt = await runCli(['rebuild', 'vectors'], env);
    expect(rebuilt.code, rebuilt.output).to.equal(0);
    await service.start();
    await waitForDrain(service);
    expect(await read(), 'after the vector store was rebuilt from the log').to.deep.equal(before);
    await service.stop();
  });

  it('reset-group refuses what it cannot do, with what to do instead', async () => {
    const env = { MEMORY_DATA_DIR: service.dataDir };
    const unknown = await runCli(['reset-group', 'some-group', 'earliest'], env);
    expect(unknown.code).to.equal(1);
    expect(unknown.output).to.include('"some-group" is not a stage; name its topic with --topic');
    const badPosition = await runCli(['reset-group', 'enricher', 'yesterday-ish'], env);
    expect(badPosition.output).to.include('is not earliest, latest, an offset or an ISO 8601 time');
    const usage = await runCli([], env);
    expect(usage.code).to.equal(2);
    expect(usage.output).to.include('export-to-kafka');
  });
});
