import { expect } from 'chai';
import { caller, waitForDrain, waitForJob, type Caller, type HasUrl } from './http-caller.js';
import type { ServiceUnderTest } from './memory-api-scenarios.js';
import { TEST_KEYS as KEYS } from './service-process.js';
import { foundIds, secretWord } from './scenario-words.js';
import { drawReceipt } from './test-images.js';
import { writePdf } from './test-documents.js';


async function ingestText(api: Caller, content: string) {
  const ack = await api.post('/v1/memory', { source: { type: 'text', content } });
  expect(ack.status, JSON.stringify(ack.body)).to.equal(202);
  const job = await waitForJob(api, ack.body.jobId);
  expect(job.status, JSON.stringify(job)).to.equal('Completed');
  return { jobId: ack.body.jobId as string, memoryIds: job.memoryIds as string[] };
}

async function forgetAndWait(api: Caller, path: string) {
  const ack = await api.delete(path);
  expect(ack.status, JSON.stringify(ack.body)).to.equal(202);
  expect(ack.body.status).to.equal('Accepted');
  expect(ack.body.jobId).to.match(/^del_job_\d{13}_/);
  const job = await waitForJob(api, ack.body.jobId);
  expect(job.status, JSON.stringify(job)).to.equal('Completed');
  expect(job.receipt, JSON.stringify(job)).to.be.an('object');
  return job.receipt as { memories: number; removed: Array<{ store: string; what: string; count: number }>; log: string };
}

const removedFrom = (receipt: { removed: Array<{ store: string; count: number }> }, store: string) =>
  receipt.removed.filter((r) => r.store === store).reduce((sum, r) => sum + r.count, 0);

async function upload(service: HasUrl, endUserId: string, bytes: Buffer, fileName: string, headers: Record<string, string> = {}) {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'application/pdf' }), fileName);
  const res = await fetch(`${service.url}/v1/ingest/document/upload`, { method: 'POST', headers: { authorization: `Bearer ${KEYS.acme}`, 'x-end-user-id': endUserId, ...headers }, body: form });
  return { status: res.status, body: (await res.json()) as any };
}

/**
 * Forgetting over HTTP, for every way of running the service: a memory, a job's memories, an end user; what each
 * receipt says; that nothing returns what was forgotten (search of every strategy, jobs, previews, the raw bytes
 * the service keeps); that a delete overtaking its memory in the pipeline wins; and that tenants and end users
 * cannot forget each other's memories.
 */
export function describeForgetScenarios(title: string, service: ServiceUnderTest): void {
  describe(title, function () {
    this.timeout(240_000);
    const as = (endUserId: string, key: string = KEYS.acme) => caller(service, key, endUserId);

    before(() => service.start());
    after(() => service.stop());

    it('forgets one memory: gone from every search strategy and from the job records, with a receipt; a second delete finds nothing', async () => {
      const word = secretWord('zanzibarquill');
      const olga = as('olga');
      const kept = await ingestText(olga, `My sister ${word}ia lives in Porto and loves sardines.`);
      const { jobId, memoryIds } = await ingestText(olga, `I told Ingrid the code ${word} for the garage, ORD-7781-${word}`);
      expect(await foundIds(olga, word)).to.include(memoryIds[0]);

      const receipt = await forgetAndWait(olga, `/v1/memories/${memoryIds[0]}`);
      expect(receipt.memories).to.equal(1);
      expect(removedFrom(receipt, 'vectors')).to.equal(1);
      expect(removedFrom(receipt, 'keys')).to.be.at.least(1);
      expect(removedFrom(receipt, 'jobs')).to.equal(1);
      expect(receipt.removed.find((r) => r.store === 'graph' && r.what === 'memory nodes')?.count).to.equal(1);
      expect(receipt.log).to.match(/ciphertext/);

      const found = await foundIds(olga, `${word} garage ORD-7781-${word} Ingrid`);
      expect(found).to.not.include(memoryIds[0]);
      expect(found, 'the other memory is untouched').to.include(kept.memoryIds[0]);
      expect((await olga.get(`/v1/jobs/${jobId}`)).status, 'the job record goes too').to.equal(404);
      expect((await olga.get(`/v1/memories/${memoryIds[0]}`)).status, 'GET by id').to.equal(404);
      expect((await olga.get(`/v1/memories?job_id=${jobId}`)).body.data, 'the listing').to.deep.equal([]);
      expect((await olga.get('/v1/memories?limit=100')).body.data.map((m: { id: string }) => m.id)).to.include(kept.memoryIds[0]).and.not.include(memoryIds[0]);

      const again = await forgetAndWait(olga, `/v1/memories/${memoryIds[0]}`);
      expect(again.memories).to.equal(0);
      expect(again.removed.every((r) => r.count === 0 || r.store === 'centroid'), JSON.stringify(again)).to.equal(true);
    });

    it('never lets another end user or tenant forget a memory, nor tells them it exists', async () => {
      const word = secretWord('quokkalantern');
      const piet = as('piet');
      const { memoryIds } = await ingestText(piet, `Piet keeps the ${word} in the blue cupboard.`);
      // Another tenant's end user of the same name: accepted, and nothing of theirs is there to remove.
      expect((await forgetAndWait(caller(service, KEYS.globex, 'piet'), `/v1/memories/${memoryIds[0]}`)).memories).to.equal(0);
      // An id that names another end user can never be this one's memory: 404, the answer of any unknown id.
      const mallory = await as('mallory').delete(`/v1/memories/${memoryIds[0]}`);
      const unknown = await as('mallory').get(`/v1/memories/${memoryIds[0]}`);
      expect([mallory.status, mallory.body.error.code]).to.deep.equal([404, 'MEMORY.NOT_FOUND']);
      expect(unknown.status).to.equal(404);
      expect((await forgetAndWait(as('mallory'), '/v1/memories/mem_job_1700000000000_mallory_0')).memories).to.equal(0);
      expect(await foundIds(piet, word)).to.include(memoryIds[0]);
    });

    it('a delete accepted while its memory is still in the pipeline wins: the memory never becomes searchable', async () => {
      const word = secretWord('marmotkettle');
      const rosa = as('rosa');
      const acks = [];
      for (let i = 0; i < 5; i++) acks.push(await rosa.post('/v1/memory', { source: { type: 'text', content: `Note ${i}: the ${word} is under the stairs` } }));
      const forgotten = await Promise.all(acks.map((ack) => rosa.delete(`/v1/memories/mem_${ack.body.jobId}_0`)));
      expect(forgotten.map((r) => r.status)).to.deep.equal([202, 202, 202, 202, 202]);
      for (const ack of forgotten) expect((await waitForJob(rosa, ack.body.jobId)).status).to.equal('Completed');
      await waitForDrain(service);
      expect(await foundIds(rosa, word)).to.deep.equal([]);
      for (const ack of acks) expect((await rosa.get(`/v1/jobs/${ack.body.jobId}`)).status).to.equal(404);
    });

    it('forgets every memory a job made: a PDF\'s pages and its file', async () => {
      const word = secretWord('pelicanharbour');
      const uma = as('uma');
      const ack = await upload(service, 'uma', await writePdf([`Page one about the ${word} ferry timetable.`, `Page two: the ${word} pier closes at nine.`]), 'ferries.pdf', { 'idempotency-key': `uma-${word}` });
      expect(ack.status, JSON.stringify(ack.body)).to.equal(202);
      const job = await waitForJob(uma, ack.body.jobId);
      expect(job.memoryIds).to.have.length(2);
      expect((await foundIds(uma, word)).filter((id) => job.memoryIds.includes(id))).to.have.length(2);

      const receipt = await forgetAndWait(uma, `/v1/memories?job_id=${ack.body.jobId}`);
      expect(receipt.memories).to.equal(2);
      expect(removedFrom(receipt, 'blobs'), 'the PDF').to.equal(1);
      expect(removedFrom(receipt, 'idempotency'), 'the upload\'s Idempotency-Key record').to.equal(1);
      expect(receipt.removed.find((r) => r.what === 'document nodes with no page left')?.count).to.equal(1);
      expect(await foundIds(uma, word)).to.deep.equal([]);
    });

    it('forgets a PDF page by page: the last page takes the file, the job record and the key that sealed the upload', async () => {
      const word = secretWord('otterlantern');
      const wren = as('wren');
      const ack = await upload(service, 'wren', await writePdf([`Page one: the ${word} shop opens at ten.`, `Page two: the ${word} shop sells maps.`]), 'otters.pdf', { 'idempotency-key': `wren-${word}` });
      expect(ack.status, JSON.stringify(ack.body)).to.equal(202);
      const job = await waitForJob(wren, ack.body.jobId);
      expect(job.memoryIds).to.have.length(2);

      const removals = (receipt: Awaited<ReturnType<typeof forgetAndWait>>) => ['blobs', 'jobs', 'keys', 'idempotency'].map((store) => removedFrom(receipt, store));
      const first = await forgetAndWait(wren, `/v1/memories/${job.memoryIds[0]}`);
      expect([first.memories, ...removals(first)], 'the page\'s own key; the PDF and the upload\'s Idempotency-Key record stay').to.deep.equal([1, 0, 0, 1, 0]);
      const last = await forgetAndWait(wren, `/v1/memories/${job.memoryIds[1]}`);
      expect([last.memories, ...removals(last)], 'the page\'s key and the job\'s, and the upload\'s record').to.deep.equal([1, 1, 1, 2, 1]);
      expect((await wren.get(`/v1/jobs/${ack.body.jobId}`)).status).to.equal(404);
      expect(await foundIds(wren, word)).to.deep.equal([]);
    });

    it('forgets the Idempotency-Key records of a forgotten memory\'s job and updates: the same requests with the same keys are new ones', async () => {
      const word = secretWord('ibisharmonica');
      const hana = as('hana');
      const ingestKey = { 'idempotency-key': `hana-${word}` };
      const body = { source: { type: 'text', content: `Hana lent the ${word} to her cousin in Ghent.` } };
      const first = await hana.post('/v1/memory', body, ingestKey);
      expect(first.status, JSON.stringify(first.body)).to.equal(202);
      const job = await waitForJob(hana, first.body.jobId);
      expect(job.status, JSON.stringify(job)).to.equal('Completed');
      const memoryId = job.memoryIds[0] as string;
      const updateKey = { 'idempotency-key': `hana-update-${word}` };
      const change = { content: `Hana lent the ${word} to her aunt in Ghent.` };
      const update = await hana.patch(`/v1/memories/${memoryId}`, change, updateKey);
      expect(update.status, JSON.stringify(update.body)).to.equal(202);
      expect((await waitForJob(hana, update.body.jobId)).status).to.equal('Completed');
      expect((await hana.post('/v1/memory', body, ingestKey)).headers.get('idempotent-replayed'), 'replayed while the memory exists').to.equal('true');

      const receipt = await forgetAndWait(hana, `/v1/memories/${memoryId}`);
      expect(removedFrom(receipt, 'idempotency'), 'the ingestion\'s record and the update\'s').to.equal(2);
      expect(removedFrom(receipt, 'jobs'), 'the ingestion\'s job record and the update\'s').to.equal(2);
      for (const jobId of [first.body.jobId, update.body.jobId]) expect((await hana.get(`/v1/jobs/${jobId}`)).status, jobId).to.equal(404);

      const again = await hana.post('/v1/memory', body, ingestKey);
      expect(again.status, JSON.stringify(again.body)).to.equal(202);
      expect(again.headers.get('idempotent-replayed'), 'a new request, not a replay of the forgotten one').to.equal(null);
      expect(again.body.jobId).to.not.equal(first.body.jobId);
      const patched = await hana.patch(`/v1/memories/${memoryId}`, change, updateKey);
      expect([patched.status, patched.body.error?.code], 'the update is not replayed: its memory is gone').to.deep.equal([404, 'MEMORY.NOT_FOUND']);
      expect((await waitForJob(hana, again.body.jobId)).status).to.equal('Completed');
    });

    it('forgets an image memory with its original and preview', async () => {
      const vera = as('vera');
      const image = (await drawReceipt()).toString('base64');
      const ack = await vera.post('/v1/memory/image', { imageData: image, userContext: 'the receipt for the pond pump' });
      expect(ack.status, JSON.stringify(ack.body)).to.equal(202);
      const job = await waitForJob(vera, ack.body.jobId);
      expect(job.status).to.equal('Completed');
      const preview = () => fetch(ack.body.previewUrl, { headers: { authorization: `Bearer ${KEYS.acme}`, 'x-end-user-id': 'vera' } });
      expect((await preview()).status).to.equal(200);
      const byImage = async () => (await vera.post('/v1/search', { queryImage: image, options: { limit: 10 } })).body.data.map((m: { id: string }) => m.id);
      expect(await byImage(), 'found by the same image before').to.include(job.memoryIds[0]);

      const receipt = await forgetAndWait(vera, `/v1/memories/${job.memoryIds[0]}`);
      expect(receipt.memories).to.equal(1);
      expect(removedFrom(receipt, 'visual-vectors')).to.equal(1);
      expect(removedFrom(receipt, 'blobs'), 'original and preview').to.equal(2);
      expect((await preview()).status).to.equal(404);
      expect(await byImage(), 'and not after').to.not.include(job.memoryIds[0]);
    });

    it('erases an end user: every memory, entity and job before the erasure; what they send afterwards is kept', async () => {
      const word = secretWord('ocelotbanjo');
      const walt = as('walt');
      const first = await ingestText(walt, `Walt met Bernadette ${word} at the Lisbon observatory.`);
      const keyed = await walt.post('/v1/memory', { source: { type: 'text', content: `Bernadette ${word} lent me her telescope.` } }, { 'idempotency-key': `walt-${word}` });
      expect((await waitForJob(walt, keyed.body.jobId)).status).to.equal('Completed');
      const receipt = await forgetAndWait(walt, '/v1/users/walt');
      expect(receipt.memories).to.equal(2);
      expect(removedFrom(receipt, 'idempotency'), 'the end user\'s Idempotency-Key records').to.equal(1);
      expect(removedFrom(receipt, 'graph')).to.be.greaterThan(2);
      expect(removedFrom(receipt, 'jobs')).to.be.at.least(2);
      expect(await foundIds(walt, `${word} Bernadette telescope observatory`)).to.deep.equal([]);
      expect((await walt.get(`/v1/jobs/${first.jobId}`)).status).to.equal(404);
      const entity = await walt.post('/v1/search', { query: 'Bernadette', strategy: 'entity_anchor', options: { limit: 10 } });
      expect(entity.body.data).to.deep.equal([]);

      const later = await ingestText(walt, `After the erasure: Bernadette ${word} visited again.`);
      expect(await foundIds(walt, word)).to.deep.equal(later.memoryIds);
    });

    it('an erasure accepted while the end user\'s ingestion is in flight forgets all of it; what comes after stays', async () => {
      const word = secretWord('tapirsemaphore');
      const quinn = as('quinn');
      const inFlight = [];
      for (let i = 0; i < 8; i++) inFlight.push(await quinn.post('/v1/memory', { source: { type: 'text', content: `Entry ${i}: the ${word} rang at noon` } }));
      const erasure = await quinn.delete('/v1/users/quinn');
      expect(erasure.status).to.equal(202);
      const after = await quinn.post('/v1/memory', { source: { type: 'text', content: `Later: the ${word} rang again` } });
      expect((await waitForJob(quinn, erasure.body.jobId)).status).to.equal('Completed');
      expect((await waitForJob(quinn, after.body.jobId)).status).to.equal('Completed');
      await waitForDrain(service);
      expect(await foundIds(quinn, word)).to.deep.equal([`mem_${after.body.jobId}_0`]);
      for (const ack of inFlight) expect((await quinn.get(`/v1/jobs/${ack.body.jobId}`)).status, ack.body.jobId).to.equal(404);
    });

    it('answers a retried DELETE with the same Idempotency-Key with the first job', async () => {
      const zoe = as('zoe');
      const { memoryIds } = await ingestText(zoe, 'Zoe keeps the spare fuses in the hall drawer.');
      const headers = { 'idempotency-key': `zoe-${memoryIds[0]}` };
      const first = await zoe.delete(`/v1/memories/${memoryIds[0]}`, headers);
      const retry = await zoe.delete(`/v1/memories/${memoryIds[0]}`, headers);
      expect([first.status, retry.status]).to.deep.equal([202, 202]);
      expect(retry.body.jobId).to.equal(first.body.jobId);
      expect((await zoe.delete(`/v1/memories?job_id=${first.body.jobId}`, headers)).body.error.code).to.equal('IDEMPOTENCY.KEY_REUSED');
    });

    it('answers a retried erasure with the same Idempotency-Key with the first job, also once it has completed', async () => {
      const yann = as('yann');
      await ingestText(yann, 'Yann waters the ferns on Sundays.');
      const headers = { 'idempotency-key': 'erase-yann-1' };
      const first = await yann.delete('/v1/users/yann', headers);
      expect(first.status, JSON.stringify(first.body)).to.equal(202);
      expect((await waitForJob(yann, first.body.jobId)).status).to.equal('Completed');
      const retry = await yann.delete('/v1/users/yann', headers);
      expect(retry.status).to.equal(202);
      expect(retry.headers.get('idempotent-replayed')).to.equal('true');
      expect(retry.body.jobId).to.equal(first.body.jobId);
    });

    it('refuses malformed requests with stable codes', async () => {
      const xena = as('xena');
      expect((await xena.delete('/v1/memories')).body.error.code).to.equal('FORGET.MISSING_JOB_ID');
      expect((await xena.delete('/v1/memories?job_id=job_1_bob')).body.error.code).to.equal('FORGET.INVALID_JOB_ID');
      expect((await xena.delete('/v1/memories/not-a-memory')).status).to.equal(404);
      const mismatch = await xena.delete('/v1/users/yuri');
      expect([mismatch.status, mismatch.body.error.code]).to.deep.equal([400, 'FORGET.END_USER_MISMATCH']);
      expect((await caller(service, null, 'xena').delete('/v1/users/xena')).status).to.equal(401);
      expect((await caller(service, KEYS.acme, null).delete('/v1/memories/mem_job_1_x_0')).body.error.code).to.equal('REQUEST.MISSING_END_USER');
    });

    it('keeps nothing readable of what was forgotten in the bytes it stores', async function () {
      if (!service.bytesAtRest) this.skip();
      const word = secretWord('wolverinetrumpet');
      const yara = as('yara');
      const { memoryIds } = await ingestText(yara, `Yara hid the ${word} inside the piano at Ostend.`);
      await forgetAndWait(yara, `/v1/memories/${memoryIds[0]}`);
      await waitForDrain(service);
      const bytes = await service.bytesAtRest!();
      // Record keys (tenant/end user) are in clear: proof that the bytes read are the ones the service wrote.
      expect(bytes.includes(Buffer.from('acme/yara')), 'the bytes read hold the end user\'s records').to.equal(true);
      for (const piece of [word, 'inside the piano', 'Ostend']) expect(bytes.includes(Buffer.from(piece)), `"${piece}" is still readable`).to.equal(false);
    });
  });
}
