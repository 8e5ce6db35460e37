import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { caller, waitForJob, type Caller, type HasUrl, expectError } from './http-caller.js';
import type { ServiceUnderTest } from './memory-api-scenarios.js';
import { TEST_KEYS as KEYS } from './service-process.js';
import { writePdf } from './test-documents.js';
import { drawReceipt } from './test-images.js';

const MINUTE = 60_000;
/** The reference time of the listing user's memories: far from now, so nothing else of theirs is near it. */
const T0 = Date.parse('2022-01-10T09:00:00Z');
const iso = (time: number) => new Date(time).toISOString();

/** A multipart PDF upload whose parts come in the order given (a `metadata` part before or after the file). */
async function uploadPdf(service: HasUrl, endUserId: string, pdf: Buffer, parts: Array<'file' | { metadata: string }>) {
  const form = new FormData();
  for (const part of parts) {
    if (part === 'file') form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'notes.pdf');
    else form.append('metadata', part.metadata);
  }
  const res = await fetch(`${service.url}/v1/ingest/document/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEYS.acme}`, 'x-end-user-id': endUserId },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function ingest(api: Caller, content: string, extra: Record<string, unknown> = {}, timestamp?: number): Promise<string> {
  const ack = await api.post('/v1/memory', { source: { type: 'text', content, ...(timestamp === undefined ? {} : { timestamp: iso(timestamp) }) }, ...extra });
  expect(ack.status, JSON.stringify(ack.body)).to.equal(202);
  return ack.body.jobId;
}

async function memoryIdsOf(api: Caller, jobIds: string[]): Promise<string[]> {
  const jobs = await Promise.all(jobIds.map((jobId) => waitForJob(api, jobId, 120_000)));
  for (const job of jobs) expect(job.status, JSON.stringify(job)).to.equal('Completed');
  return jobs.flatMap((job) => job.memoryIds as string[]);
}

/** Every page of GET /v1/memories?<query>, calling `between` after each page: the ids in the order read. */
async function listAll(api: Caller, query: string, between?: (page: number) => Promise<void>): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 50; page++) {
    const res = await api.get(`/v1/memories?${query}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    ids.push(...res.body.data.map((memory: any) => memory.id));
    cursor = res.body.nextCursor;
    if (cursor === null) return { ids, pages: page + 1 };
    await between?.(page);
  }
  throw new Error('the listing did not end within 50 pages');
}

/**
 * Reading memories back over HTTP, for every way of running the service: GET /v1/memories/{id} (no existence leak
 * across end users and tenants), GET /v1/memories (order, keyset pages while memories are written, every filter),
 * and metadata from each ingestion route to the payload of reads and searches.
 */
export function describeMemoryReadScenarios(title: string, service: ServiceUnderTest): void {
  describe(title, function () {
    this.timeout(300_000);
    const as = (endUserId: string, key = KEYS.acme) => caller(service, key, endUserId);
    const lena = () => as('lena');

    before(() => service.start());
    after(() => service.stop());

    it('reads a memory by id in the search result shape without a score, with its metadata, as search shows it', async () => {
      const metadata = { project: 'apollo', priority: 2, pinned: true, ratio: 0.25 };
      const [id] = await memoryIdsOf(lena(), [await ingest(lena(), 'Ordered a walnut bookshelf for the study', { userContext: 'home office', metadata })]);
      const read = await lena().get(`/v1/memories/${id}`);
      expect(read.status, JSON.stringify(read.body)).to.equal(200);
      expect(Object.keys(read.body).sort()).to.deep.equal(['id', 'payload']);
      expect(read.body.id).to.equal(id);
      expect(read.body.payload).to.deep.include({ user_id: 'lena', source_type: 'text', metadata });
      expect(read.body.payload.content).to.include('walnut bookshelf');
      const found = await lena().post('/v1/search', { query: 'walnut bookshelf', options: { limit: 5 } });
      const hit = found.body.data.find((memory: any) => memory.id === id);
      expect(hit, JSON.stringify(found.body)).to.exist;
      expect(hit.payload, 'one payload builder for search and read').to.deep.equal(read.body.payload);

      const [plain] = await memoryIdsOf(lena(), [await ingest(lena(), 'Watered the fern on the windowsill')]);
      expect((await lena().get(`/v1/memories/${plain}`)).body.payload.metadata, 'no metadata reads as {}').to.deep.equal({});
    });

    it("answers 404 MEMORY.NOT_FOUND alike for an unknown id and another end user's or tenant's memory", async () => {
      const [id] = await memoryIdsOf(lena(), [await ingest(lena(), 'Booked the piano tuner for next month')]);
      const unknownId = `${id}_never`;
      // One request id for the compared requests: their answers must not differ by a single byte.
      const probe = { 'x-request-id': 'probe-not-found' };
      const unknown = await lena().get(`/v1/memories/${unknownId}`, probe);
      expectError(unknown, 404, 'MEMORY.NOT_FOUND');
      const sameAsUnknown = JSON.stringify(unknown.body).replaceAll(unknownId, id!);
      for (const [who, api] of [['another end user', as('mia')], ['another tenant, same end user id', as('lena', KEYS.globex)]] as const) {
        const res = await api.get(`/v1/memories/${id}`, probe);
        expect(res.status, who).to.equal(404);
        expect(JSON.stringify(res.body), who).to.equal(sameAsUnknown);
        expect((await api.get('/v1/memories?limit=100')).body.data.map((memory: any) => memory.id), who).to.not.include(id);
      }
      expectError(await caller(service, KEYS.acme, null).get(`/v1/memories/${id}`), 400, 'REQUEST.MISSING_END_USER');
      expectError(await caller(service, KEYS.acme, null).get('/v1/memories'), 400, 'REQUEST.MISSING_END_USER');
      expectError(await caller(service, null, 'lena').get('/v1/memories'), 401, 'AUTH.MISSING_KEY');
    });

    it('lists newest first in pages that stay exact while memories are written between them', async () => {
      const oscar = () => as('oscar');
      const initial = await memoryIdsOf(
        oscar(),
        await Promise.all(['kiwi', 'mango', 'papaya', 'guava', 'lychee', 'quince', 'fig'].map((fruit, i) => ingest(oscar(), `Tasted a ${fruit} at the market stall`, {}, T0 + i * MINUTE))),
      );
      const first = await oscar().get('/v1/memories?limit=3');
      expect(first.body.data.map((memory: any) => memory.id)).to.deep.equal(initial.slice(-3).reverse());
      expect(first.body.data[0].payload.created_at).to.equal(T0 + 6 * MINUTE);
      expect(first.body.data[0]).to.not.have.property('finalScore');

      const newer: string[] = [];
      const older: string[] = [];
      const { ids, pages } = await listAll(oscar(), 'limit=3', async (page) => {
        // One newer than every page (so never listed) and one older than all (so listed at the end), each time.
        const [newJob, oldJob] = await Promise.all([ingest(oscar(), `Tasted a durian, round ${page}`, {}, T0 + 60 * MINUTE), ingest(oscar(), `Tasted a medlar, round ${page}`, {}, T0 - (page + 1) * MINUTE)]);
        newer.push(...(await memoryIdsOf(oscar(), [newJob])));
        older.push(...(await memoryIdsOf(oscar(), [oldJob])));
      });
      expect(pages).to.be.at.least(3);
      expect(new Set(ids).size, 'no memory twice').to.equal(ids.length);
      expect(ids.slice(0, initial.length), 'the first memories, newest first, none skipped').to.deep.equal([...initial].reverse());
      for (const id of newer) expect(ids, 'newer than the pages already read').to.not.include(id);
      expect(ids.slice(initial.length), 'older ones come after, newest first').to.deep.equal(older.slice(0, ids.length - initial.length));
      expect(ids.length).to.be.greaterThan(initial.length);
    });

    it('filters by memory type, creation time, event time, job id and metadata', async () => {
      const nora = () => as('nora');
      const jobs = await Promise.all([
        ingest(nora(), 'I prefer green tea to coffee', { metadata: { project: 'apollo', priority: 2, pinned: true } }, T0),
        ingest(nora(), 'We moved to Lisbon on 2021-06-15', { metadata: { project: 'apollo', priority: 3 } }, T0 + MINUTE),
        ingest(nora(), 'Bought a used road bike', { metadata: { project: 'gemini', priority: 2 } }, T0 + 2 * MINUTE),
      ]);
      const [tea, lisbon, bike] = await memoryIdsOf(nora(), jobs);
      const pdf = await uploadPdf(service, 'nora', await writePdf(['Page 1. Allotment plot rules.', 'Page 2. Compost bins go by the shed.']), ['file', { metadata: '{"project":"allotment"}' }]);
      expect(pdf.status, JSON.stringify(pdf.body)).to.equal(202);
      const pages = await memoryIdsOf(nora(), [pdf.body.jobId]);
      expect(pages).to.have.length(2);

      const list = async (query: string) => {
        const res = await nora().get(`/v1/memories?limit=100&${query}`);
        expect(res.status, `${query}: ${JSON.stringify(res.body)}`).to.equal(200);
        return res.body.data as any[];
      };
      const ids = async (query: string) => (await list(query)).map((memory) => memory.id);
      const all = await list('');
      expect(all.map((memory) => memory.id).sort()).to.deep.equal([tea, lisbon, bike, ...pages].sort());

      expect((await ids('memory_type=document_page')).sort()).to.deep.equal([...pages].sort());
      const teaType = all.find((memory) => memory.id === tea).payload.memory_type;
      const ofTeaType = all.filter((memory) => [teaType, 'document_page'].includes(memory.payload.memory_type)).map((memory) => memory.id);
      expect(await ids(`memory_type=${teaType},document_page`)).to.deep.equal(ofTeaType);

      expect(await ids(`created_after=${iso(T0 + MINUTE)}&created_before=${T0 + 2 * MINUTE}`)).to.deep.equal([lisbon]);
      expect(await ids(`created_before=${encodeURIComponent(iso(T0 + MINUTE))}`)).to.deep.equal([tea]);
      expect(await ids('event_after=2021-06-01&event_before=2021-07-01')).to.deep.equal([lisbon]);
      expect(await ids('event_before=2021-06-01')).to.deep.equal([]);

      expect(await ids(`job_id=${pdf.body.jobId}`)).to.deep.equal([...pages].reverse());
      expect(await ids('metadata.project=apollo')).to.deep.equal([lisbon, tea]);
      expect(await ids('metadata.project=apollo&metadata.priority=2')).to.deep.equal([tea]);
      expect(await ids('metadata.pinned=true')).to.deep.equal([tea]);
      expect(await ids('metadata.priority=2')).to.deep.equal([bike, tea]);
      expect(await ids('metadata.project=allotment')).to.deep.equal([...pages].reverse());
      expect(await ids('metadata.project=Apollo')).to.deep.equal([]);
      expect((await list('metadata.project=allotment'))[0].payload.metadata).to.deep.equal({ project: 'allotment' });

      const paged = await listAll(nora(), 'limit=1&metadata.project=apollo');
      expect(paged.ids).to.deep.equal([lisbon, tea]);
    });

    it('refuses bad list parameters with stable codes', async () => {
      expectError(await lena().get('/v1/memories?limit=0'), 400, 'LIST.INVALID_LIMIT');
      expectError(await lena().get('/v1/memories?limit=101'), 400, 'LIST.INVALID_LIMIT');
      expectError(await lena().get('/v1/memories?cursor=not-a-cursor'), 400, 'LIST.INVALID_CURSOR');
      expectError(await lena().get('/v1/memories?created_after=last-week'), 400, 'LIST.INVALID_FILTER');
      expectError(await lena().get('/v1/memories?event_after=2024-02-01&event_before=2024-01-01'), 400, 'LIST.INVALID_FILTER');
      expectError(await lena().get('/v1/memories?metadata.bad.key=1'), 400, 'LIST.INVALID_FILTER');
      expectError(await lena().get('/v1/memories?sort=asc'), 400, 'LIST.UNKNOWN_PARAMETER');
      expectError(await lena().get('/v1/memories?limit=5&limit=6'), 400, 'LIST.INVALID_PARAMETER');
    });

    it('refuses invalid metadata on every ingestion route, storing nothing', async () => {
      const text = (metadata: unknown) => ({ source: { type: 'text', content: 'metadata check' }, metadata });
      // The fast path on node:http and the Express route (a gzip body goes there) validate alike.
      for (const send of [(body: unknown) => lena().post('/v1/memory', body), (body: unknown) => lena().post('/v1/memory', gzipSync(JSON.stringify(body)), { 'content-encoding': 'gzip' })]) {
        expectError(await send(text({ nested: { a: 1 } })), 400, 'METADATA.INVALID');
        expectError(await send(text(['a'])), 400, 'METADATA.INVALID');
        expectError(await send(text({ 'bad key': 1 })), 400, 'METADATA.INVALID');
        expectError(await send(text({ note: 'x'.repeat(513) })), 400, 'METADATA.TOO_LARGE');
        expectError(await send(text(Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, i])))), 400, 'METADATA.TOO_LARGE');
      }
      const image = (await drawReceipt()).toString('base64');
      expectError(await lena().post('/v1/memory/image', { imageData: image, metadata: { album: null } }), 400, 'METADATA.INVALID');
      expectError(await lena().post('/v1/memory/image', { imageData: image, metadata: Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`n${i}`, 'x'.repeat(500)])) }), 400, 'METADATA.TOO_LARGE');

      const pdf = await writePdf(['Page 1. Metadata check.']);
      const storedBefore = await service.storedBlobs?.();
      expectError(await uploadPdf(service, 'lena', pdf, [{ metadata: '{"a":{"b":1}}' }, 'file']), 400, 'METADATA.INVALID');
      expectError(await uploadPdf(service, 'lena', pdf, ['file', { metadata: 'not json' }]), 400, 'METADATA.INVALID');
      expectError(await uploadPdf(service, 'lena', pdf, ['file', { metadata: JSON.stringify({ note: 'x'.repeat(600) }) }]), 400, 'METADATA.TOO_LARGE');
      if (storedBefore !== undefined) expect(await service.storedBlobs!(), 'a refused upload leaves no blob').to.equal(storedBefore);
      expect((await lena().get('/v1/memories?limit=100')).body.data.map((memory: any) => memory.payload.content)).to.not.include('metadata check');
    });

    it('carries the metadata of an image and of a PDF sent before the file into reads and searches', async () => {
      const pia = () => as('pia');
      const receipt = await drawReceipt();
      const imageAck = await pia().post('/v1/memory/image', { imageData: receipt.toString('base64'), userContext: 'Garden centre receipt', metadata: { album: 'garden', year: 2024 } });
      expect(imageAck.status, JSON.stringify(imageAck.body)).to.equal(202);
      const pdf = await uploadPdf(service, 'pia', await writePdf(['Page 1. The greenhouse heater runs on a thermostat.']), [{ metadata: '{"shelf":"B2","archived":false}' }, 'file']);
      expect(pdf.status, JSON.stringify(pdf.body)).to.equal(202);
      const [imageId, pageId] = await memoryIdsOf(pia(), [imageAck.body.jobId, pdf.body.jobId]);
      expect((await pia().get(`/v1/memories/${imageId}`)).body.payload).to.deep.include({ memory_type: 'image', metadata: { album: 'garden', year: 2024 } });
      expect((await pia().get(`/v1/memories/${pageId}`)).body.payload.metadata).to.deep.equal({ shelf: 'B2', archived: false });
      const byImage = await pia().post('/v1/search', { queryImage: receipt.toString('base64'), options: { limit: 3 } });
      expect(byImage.body.data[0].id, JSON.stringify(byImage.body)).to.equal(imageId);
      expect(byImage.body.data[0].payload.metadata).to.deep.equal({ album: 'garden', year: 2024 });
      const byText = await pia().post('/v1/search', { query: 'greenhouse heater thermostat', options: { limit: 3 } });
      expect(byText.body.data[0].payload.metadata).to.deep.equal({ shelf: 'B2', archived: false });
    });
  });
}
