import { expect } from 'chai';
import { caller, waitForDrain, waitForJob, type Caller } from './http-caller.js';
import type { ServiceUnderTest } from './memory-api-scenarios.js';
import { TEST_KEYS as KEYS } from './service-process.js';
import { foundIds, secretWord } from './scenario-words.js';
import { drawReceipt } from './test-images.js';


async function ingest(api: Caller, source: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const ack = await api.post('/v1/memory', { source: { type: 'text', ...source }, ...extra });
  expect(ack.status, JSON.stringify(ack.body)).to.equal(202);
  const job = await waitForJob(api, ack.body.jobId);
  expect(job.status, JSON.stringify(job)).to.equal('Completed');
  return job.memoryIds[0] as string;
}

/** PATCHes a memory and waits for the update job to end; returns the job record. */
async function update(api: Caller, memoryId: string, change: Record<string, unknown>) {
  const ack = await api.patch(`/v1/memories/${memoryId}`, change);
  expect(ack.status, JSON.stringify(ack.body)).to.equal(202);
  expect(ack.body.status).to.equal('Accepted');
  expect(ack.body.jobId).to.match(/^upd_job_\d{13}_/);
  return waitForJob(api, ack.body.jobId);
}

/** What every search strategy returns of one memory: its payloads, so a test sees which version each hit is. */
async function hitsOf(api: Caller, query: string, memoryId: string): Promise<Array<{ version: number; original_content: string }>> {
  const payloads = [];
  for (const body of [{ query, options: { limit: 50 } }, { query, strategy: 'centroid_aware', options: { limit: 50 } }, { query, strategy: 'direct_lookup', options: { limit: 50 } }]) {
    const res = await api.post('/v1/search', body);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    for (const hit of res.body.data) if (hit.id === memoryId) payloads.push(hit.payload);
  }
  return payloads;
}

/** Several memories accepted at once, not awaited: the pipeline has work ahead of whatever is sent next. */
async function backlog(api: Caller, n: number) {
  await Promise.all(Array.from({ length: n }, (_, i) => api.post('/v1/memory', { source: { type: 'text', content: `Backlog note ${i}: water the ferns on the balcony` } })));
}

/**
 * Correcting memories over HTTP (PATCH /v1/memories/{id}) and their history (GET /v1/memories/{id}/history), for
 * every way of running the service: the new version replaces the old one everywhere under the same id, relative
 * dates resolve against the memory's own time, metadata is kept unless replaced; every refusal; the races with a
 * delete and with another update; and that a deleted memory keeps no version readable in the bytes at rest.
 */
export function describeUpdateScenarios(title: string, service: ServiceUnderTest): void {
  describe(title, function () {
    this.timeout(240_000);
    const as = (endUserId: string, key: string = KEYS.acme) => caller(service, key, endUserId);

    before(() => service.start());
    after(() => service.stop());

    it('replaces the content everywhere under the same id: new words found, old ones not, version 2, created_at and metadata kept, dates against the original time', async () => {
      const [oldWord, newWord] = [secretWord('aquariumzebra'), secretWord('planetariumotter')];
      const ada = as('ada');
      const memoryId = await ingest(ada, { content: `I visited the ${oldWord} in Lisbon yesterday`, timestamp: '2023-05-08T13:56:00Z' }, { metadata: { project: 'apollo' } });
      const before = (await ada.get(`/v1/memories/${memoryId}`)).body.payload;
      expect(before.version).to.equal(1);

      const job = await update(ada, memoryId, { content: `I visited the ${newWord} in Porto yesterday` });
      expect(job.status, JSON.stringify(job)).to.equal('Completed');
      expect(job.memoryIds).to.deep.equal([memoryId]);

      const after = (await ada.get(`/v1/memories/${memoryId}`)).body.payload;
      expect(after.version).to.equal(2);
      expect(after.created_at).to.equal(before.created_at);
      expect(after.job_id).to.equal(before.job_id);
      expect(after.metadata).to.deep.equal({ project: 'apollo' });
      expect(after.original_content).to.equal(`I visited the ${newWord} in Porto yesterday`);
      expect(after.content, 'yesterday resolved against the memory\'s own time').to.include('2023-05-07');
      expect(await foundIds(ada, `${newWord} Porto`)).to.include(memoryId);
      // The old words may still rank the memory semantically; whatever finds it shows the new version only.
      for (const hit of [...(await hitsOf(ada, oldWord, memoryId)), ...(await hitsOf(ada, `${oldWord} Lisbon`, memoryId))]) {
        expect([hit.version, hit.original_content]).to.deep.equal([2, `I visited the ${newWord} in Porto yesterday`]);
      }
      const searched = (await ada.post('/v1/search', { query: memoryId, strategy: 'direct_lookup' })).body.data;
      expect(searched.filter((hit: { id: string }) => hit.id === memoryId).map((hit: { payload: { version: number } }) => hit.payload.version)).to.deep.equal([2]);
      const listed = (await ada.get(`/v1/memories?job_id=${before.job_id}`)).body.data;
      expect(listed.map((m: { id: string; payload: { version: number } }) => [m.id, m.payload.version])).to.deep.equal([[memoryId, 2]]);

      const history = await ada.get(`/v1/memories/${memoryId}/history`);
      expect(history.status, JSON.stringify(history.body)).to.equal(200);
      expect(history.body.data.map((v: { version: number; cause: string }) => [v.version, v.cause])).to.deep.equal([[1, 'ingest'], [2, 'update']]);
      expect(history.body.data[0].content).to.include(oldWord);
      expect(history.body.data[1].content).to.include(newWord);
      expect(history.body.data[1].changedAt).to.be.greaterThan(history.body.data[0].changedAt);
      expect(Object.keys(history.body.data[0]).sort()).to.deep.equal(['cause', 'changedAt', 'content', 'version']);
    });

    it('keeps metadata unless replaced, clears it when sent null, and moves the reference time only when asked', async () => {
      const bea = as('bea');
      const memoryId = await ingest(bea, { content: 'Dinner with Jake tomorrow', timestamp: '2023-05-08T13:56:00Z' }, { metadata: { project: 'apollo', priority: 2 } });
      expect((await update(bea, memoryId, { userContext: 'dinner plans' })).status).to.equal('Completed');
      let payload = (await bea.get(`/v1/memories/${memoryId}`)).body.payload;
      expect([payload.version, payload.metadata, payload.original_content]).to.deep.equal([2, { project: 'apollo', priority: 2 }, 'Dinner with Jake tomorrow']);
      expect((await update(bea, memoryId, { metadata: { project: 'hermes' } })).status).to.equal('Completed');
      payload = (await bea.get(`/v1/memories/${memoryId}`)).body.payload;
      expect([payload.version, payload.metadata]).to.deep.equal([3, { project: 'hermes' }]);
      expect((await bea.get('/v1/memories?metadata.project=hermes')).body.data.map((m: { id: string }) => m.id)).to.deep.equal([memoryId]);
      expect((await update(bea, memoryId, { metadata: null, timestamp: '2024-02-01T09:00:00Z' })).status).to.equal('Completed');
      payload = (await bea.get(`/v1/memories/${memoryId}`)).body.payload;
      expect([payload.version, payload.metadata, payload.created_at]).to.deep.equal([4, {}, Date.parse('2024-02-01T09:00:00Z')]);
      expect(payload.content).to.include('2024-02-02');
      expect((await bea.get(`/v1/memories/${memoryId}/history`)).body.data.map((v: { version: number }) => v.version)).to.deep.equal([1, 2, 3, 4]);
    });

    it('answers 404 like GET for a memory that is not this end user\'s, in PATCH and history alike', async () => {
      const memoryId = await ingest(as('cleo'), { content: 'Cleo keeps her passport in the desk drawer' });
      const strangers = [as('dan'), as('cleo', KEYS.globex)];
      // One request id for the compared requests: their answers must not differ by a single byte.
      const probe = { 'x-request-id': 'probe-not-found' };
      for (const stranger of strangers) {
        const got = await stranger.get(`/v1/memories/${memoryId}`, probe);
        const patched = await stranger.patch(`/v1/memories/${memoryId}`, { content: 'taken over' }, probe);
        const history = await stranger.get(`/v1/memories/${memoryId}/history`, probe);
        expect([got.status, patched.status, history.status]).to.deep.equal([404, 404, 404]);
        expect(patched.body).to.deep.equal(got.body);
        expect(history.body).to.deep.equal(got.body);
      }
      const never = await as('cleo').patch('/v1/memories/mem_job_1700000000000_cleo_0', { content: 'x' }, probe);
      expect(never.status).to.equal(404);
      expect(never.body).to.deep.equal((await as('cleo').get('/v1/memories/mem_job_1700000000000_cleo_0', probe)).body);
      expect((await as('cleo').patch('/v1/memories/not-a-memory-id', { content: 'x' })).body.error.code).to.equal('MEMORY.NOT_FOUND');
      expect((await as('cleo').get(`/v1/memories/${memoryId}`)).body.payload.original_content).to.equal('Cleo keeps her passport in the desk drawer');
    });

    it('refuses malformed changes with the ingestion codes, and images and PDF pages as not editable', async () => {
      const eve = as('eve');
      const memoryId = await ingest(eve, { content: 'Eve parks on level 3' });
      const codeOf = async (body: unknown) => {
        const res = await eve.patch(`/v1/memories/${memoryId}`, body);
        return `${res.status} ${res.body?.error?.code}`;
      };
      expect(await codeOf({})).to.equal('400 UPDATE.NOTHING_TO_CHANGE');
      expect(await codeOf({ timestamp: '2023-05-08T13:56:00Z' })).to.equal('400 UPDATE.NOTHING_TO_CHANGE');
      expect(await codeOf({ source: { type: 'text', content: 'x' } })).to.equal('400 UPDATE.UNKNOWN_FIELD');
      expect(await codeOf({ content: '   ' })).to.equal('400 INGEST.MISSING_CONTENT');
      expect(await codeOf({ content: 42 })).to.equal('400 INGEST.MISSING_CONTENT');
      expect(await codeOf({ content: 'x'.repeat(32_001) })).to.equal('413 INGEST.TOO_LARGE');
      expect(await codeOf({ content: 'x', timestamp: 'yesterday' })).to.equal('400 INGEST.INVALID_TIMESTAMP');
      expect(await codeOf({ metadata: { 'bad key!': 1 } })).to.equal('400 METADATA.INVALID');
      expect(await codeOf({ userContext: 5 })).to.equal('400 REQUEST.INVALID_FIELD');
      expect(await codeOf([])).to.equal('400 REQUEST.INVALID_BODY');
      const text = await eve.patch(`/v1/memories/${memoryId}`, 'content=x', { 'content-type': 'text/plain' });
      expect(text.status).to.equal(415);
      expect((await caller(service, KEYS.acme, null).patch(`/v1/memories/${memoryId}`, { content: 'x' })).body.error.code).to.equal('REQUEST.MISSING_END_USER');
      expect((await eve.get(`/v1/memories/${memoryId}`)).body.payload.version, 'nothing refused changed the memory').to.equal(1);

      const ack = await eve.post('/v1/memory/image', { imageData: (await drawReceipt()).toString('base64'), userContext: 'the receipt for the bike lock' });
      const image = await waitForJob(eve, ack.body.jobId);
      for (const change of [{ userContext: 'another context' }, { metadata: { project: 'x' } }]) {
        const refused = await eve.patch(`/v1/memories/${image.memoryIds[0]}`, change);
        expect(`${refused.status} ${refused.body.error.code}`).to.equal('422 MEMORY.NOT_EDITABLE');
      }
    });

    it('answers 409 MEMORY.NOT_READY with Retry-After while the memory is still being ingested', async () => {
      const fay = as('fay');
      await backlog(fay, 30);
      const ack = await fay.post('/v1/memory', { source: { type: 'text', content: 'Fay lent her ladder to the neighbours' } });
      const memoryId = `mem_${ack.body.jobId}_0`;
      const early = await fay.patch(`/v1/memories/${memoryId}`, { content: 'Fay lent her ladder to Tom' });
      expect(`${early.status} ${early.body.error?.code}`, 'the job was still in the pipeline').to.equal('409 MEMORY.NOT_READY');
      expect(Number(early.headers.get('retry-after'))).to.be.greaterThan(0);
      expect((await waitForJob(fay, ack.body.jobId)).status).to.equal('Completed');
      expect((await update(fay, memoryId, { content: 'Fay lent her ladder to Tom' })).status).to.equal('Completed');
    });

    it('applies two updates in flight in the order accepted, numbering one version each', async () => {
      const gil = as('gil');
      const memoryId = await ingest(gil, { content: 'Gil plays the cello' });
      const first = await gil.patch(`/v1/memories/${memoryId}`, { content: 'Gil plays the viola' });
      const second = await gil.patch(`/v1/memories/${memoryId}`, { content: 'Gil plays the double bass' });
      expect([first.status, second.status]).to.deep.equal([202, 202]);
      for (const ack of [first, second]) expect((await waitForJob(gil, ack.body.jobId)).status).to.equal('Completed');
      const payload = (await gil.get(`/v1/memories/${memoryId}`)).body.payload;
      expect([payload.version, payload.original_content]).to.deep.equal([3, 'Gil plays the double bass']);
      const history = (await gil.get(`/v1/memories/${memoryId}/history`)).body.data;
      expect(history.map((v: { version: number; content: string }) => [v.version, v.content])).to.deep.equal([[1, 'Gil plays the cello'], [2, 'Gil plays the viola'], [3, 'Gil plays the double bass']]);
    });

    it('shows a search exactly one version of the memory while it is being updated', async () => {
      const hal = as('hal');
      const memoryId = await ingest(hal, { content: 'Hal stores the kayak paddles in the garage, version 0' });
      const acks = [];
      for (let n = 1; n <= 3; n++) acks.push(await hal.patch(`/v1/memories/${memoryId}`, { content: `Hal stores the kayak paddles in the garage, version ${n}` }));
      const done = Promise.all(acks.map((ack) => waitForJob(hal, ack.body.jobId)));
      let finished = false;
      void done.then(() => { finished = true; });
      const versionsSeen = new Set<number>();
      while (!finished) {
        const hits = (await hal.post('/v1/search', { query: memoryId, strategy: 'direct_lookup' })).body.data.filter((hit: { id: string }) => hit.id === memoryId);
        expect(hits, 'one hit of the memory, never two nor none').to.have.length(1);
        versionsSeen.add(hits[0].payload.version);
      }
      expect((await done).map((job) => job.status)).to.deep.equal(['Completed', 'Completed', 'Completed']);
      expect([...versionsSeen].every((v) => v >= 1 && v <= 4)).to.equal(true);
      expect((await hal.get(`/v1/memories/${memoryId}`)).body.payload.version).to.equal(4);
    });

    it('update then delete: the delete wins, the update never shows and its job fails MEMORY.FORGOTTEN', async () => {
      const [oldWord, newWord] = [secretWord('tortoisebanjo'), secretWord('walrusmandolin')];
      const ivy = as('ivy');
      const memoryId = await ingest(ivy, { content: `Ivy keeps the ${oldWord} in the attic` });
      await backlog(ivy, 30);
      const patched = await ivy.patch(`/v1/memories/${memoryId}`, { content: `Ivy keeps the ${newWord} in the cellar` });
      expect(patched.status).to.equal(202);
      const deleted = await ivy.delete(`/v1/memories/${memoryId}`);
      expect(deleted.status).to.equal(202);
      expect((await waitForJob(ivy, deleted.body.jobId)).status).to.equal('Completed');
      const job = await waitForJob(ivy, patched.body.jobId);
      expect(job.status, JSON.stringify(job)).to.equal('Failed');
      expect(job.error.code).to.equal('MEMORY.FORGOTTEN');
      expect(job.error.reason).to.include('deleted');
      await waitForDrain(service);
      expect((await ivy.get(`/v1/memories/${memoryId}`)).status).to.equal(404);
      expect((await ivy.get(`/v1/memories/${memoryId}/history`)).status).to.equal(404);
      expect(await foundIds(ivy, newWord)).to.not.include(memoryId);
      expect(await foundIds(ivy, oldWord)).to.not.include(memoryId);
    });

    it('delete then update: 404, nothing accepted', async () => {
      const jon = as('jon');
      const memoryId = await ingest(jon, { content: 'Jon waters the lemon tree on Sundays' });
      const deleted = await jon.delete(`/v1/memories/${memoryId}`);
      expect((await waitForJob(jon, deleted.body.jobId)).status).to.equal('Completed');
      const patched = await jon.patch(`/v1/memories/${memoryId}`, { content: 'Jon waters the lemon tree on Mondays' });
      expect(patched.status).to.equal(404);
      expect(patched.body.error.code).to.equal('MEMORY.NOT_FOUND');
    });

    it('keeps no version of a deleted memory readable in the bytes it stores', async function () {
      if (!service.bytesAtRest) this.skip();
      const [oldWord, newWord] = [secretWord('heronaccordion'), secretWord('pelicanoboe')];
      const kim = as('kim');
      const memoryId = await ingest(kim, { content: `Kim hid the ${oldWord} under the porch at Ghent` });
      expect((await update(kim, memoryId, { content: `Kim hid the ${newWord} behind the barn at Bruges` })).status).to.equal('Completed');
      const deleted = await kim.delete(`/v1/memories/${memoryId}`);
      expect((await waitForJob(kim, deleted.body.jobId)).status).to.equal('Completed');
      await waitForDrain(service);
      const bytes = await service.bytesAtRest!();
      expect(bytes.includes(Buffer.from('acme/kim')), 'the bytes read hold the end user\'s records').to.equal(true);
      for (const piece of [oldWord, newWord, 'under the porch', 'behind the barn']) expect(bytes.includes(Buffer.from(piece)), `"${piece}" is still readable`).to.equal(false);
    });
  });
}
