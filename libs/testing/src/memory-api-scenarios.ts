import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { caller, waitForJob, type HasUrl, expectError } from './http-caller.js';
import { openApiConformance } from './openapi-conformance.js';
import { describeSearchFilterScenarios } from './search-filter-scenarios.js';
import { TEST_KEYS as KEYS } from './service-process.js';

/** A running service under test: memoryd, or the distributed mode's processes behind their edge. */
export interface ServiceUnderTest extends HasUrl {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** How many blobs (and partial uploads) the service holds, where the test can see its store; checks that refusals store nothing. */
  storedBlobs?(): Promise<number>;
  /**
   * Every byte the service keeps of its end users' data where someone with access to the machine could read it:
   * embedded, the whole data folder read while the service is stopped (it is started again after); distributed,
   * the value of every record of every topic, read from Kafka as any client (kcat) would.
   */
  bytesAtRest?(): Promise<Buffer>;
}

/**
 * The API scenarios every way of running the service must pass, over HTTP: ingest to search with the payload,
 * backfilled timestamps, job ids, limits, strategies, search filters, every error, and tenancy.
 */
export function describeMemoryApiScenarios(title: string, service: ServiceUnderTest): void {
  describe(title, function () {
    this.timeout(180_000);
    const alice = () => caller(service, KEYS.acme, 'alice');

    before(async () => { await service.start(); });
    after(async () => { await service.stop(); });

    it('answers liveness and readiness', async () => {
      const live = await caller(service, null, null).get('/health/live');
      expect(live.status).to.equal(200);
      const ready = await caller(service, null, null).get('/health/ready');
      expect(ready.status).to.equal(200);
      expect(ready.body.status).to.equal('ready');
    });

    it('serves its OpenAPI document and a reference page without a key, the page whole from this service', async () => {
      const document = await caller(service, null, null).get('/openapi.json');
      expect(document.status).to.equal(200);
      expect(document.body.openapi).to.equal('3.1.0');
      expect(document.body.components.securitySchemes.bearerAuth).to.include({ type: 'http', scheme: 'bearer' });
      expect(Object.keys(document.body.paths)).to.include.members(['/v1/memory', '/v1/search', '/v1/memories/{id}', '/v1/jobs/{jobId}']);
      const page = await fetch(`${service.url}/docs`);
      expect(page.status).to.equal(200);
      expect(page.headers.get('content-type')).to.match(/^text\/html/);
      const html = await page.text();
      const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
      expect(assets, 'the page loads its script and styles').to.have.length.greaterThan(1);
      for (const asset of assets) {
        expect(asset, 'no CDN: the page works offline').to.match(/^\/docs\/assets\//);
        expect((await fetch(`${service.url}${asset}`)).status, asset).to.equal(200);
      }
    });

    it('answers as its OpenAPI document says: statuses and bodies of real memories, jobs, searches and errors', async () => {
      const conforms = openApiConformance((await caller(service, null, null).get('/openapi.json')).body);
      const carol = caller(service, KEYS.acme, 'carol-openapi');
      const ack = await carol.post('/v1/memory', { source: { type: 'text', content: 'Dinner with Priya at the Lebanese place on Friday, she recommended the book Dune.' }, metadata: { project: 'apollo' } });
      conforms('POST', '/v1/memory', ack);
      const job = await carol.get(`/v1/jobs/${ack.body.jobId}?waitMs=20000`);
      conforms('GET', '/v1/jobs/{jobId}', job);
      expect(job.body.status).to.equal('Completed');
      const id = job.body.memoryIds[0] as string;
      conforms('GET', '/v1/memories/{id}', await carol.get(`/v1/memories/${id}`));
      conforms('GET', '/v1/memories/{id}/history', await carol.get(`/v1/memories/${id}/history`));
      const page = await carol.get('/v1/memories?limit=1');
      conforms('GET', '/v1/memories', page);
      expect(page.body.data).to.have.length(1);
      const found = await carol.post('/v1/search', { query: 'what book did Priya recommend', options: { explain: true } });
      conforms('POST', '/v1/search', found);
      expect(found.body.data).to.not.be.empty;
      conforms('POST', '/v1/memories/search', await carol.post('/v1/memories/search', { query: 'Priya', mode: 'hybrid' }));
      conforms('GET', '/v1/memories/{id}', await carol.get('/v1/memories/mem_nothing_here'));
      conforms('POST', '/v1/search', await carol.post('/v1/search', { query: 'x', filters: { colour: 'red' } }));
      conforms('GET', '/v1/jobs/{jobId}', await carol.get('/v1/jobs/job_nothing_here'));
      conforms('POST', '/v1/memory', await caller(service, null, 'carol-openapi').post('/v1/memory', { source: { type: 'text', content: 'x' } }));
      conforms('GET', '/health/ready', await caller(service, null, null).get('/health/ready'));
      conforms('GET', '/health/live', await caller(service, null, null).get('/health/live'));
    });

    it('long-polls a job: GET /v1/jobs/{id}?waitMs answers once it is Completed, and refuses a bad wait', async () => {
      const ack = await alice().post('/v1/memory', { source: { type: 'text', content: 'The plumber comes on Thursday to fix the kitchen tap.' } });
      expect(ack.status).to.equal(202);
      const started = Date.now();
      const settled = await alice().get(`/v1/jobs/${ack.body.jobId}?waitMs=20000`);
      expect(settled.status).to.equal(200);
      expect(settled.body.status, JSON.stringify(settled.body)).to.equal('Completed');
      expect(Date.now() - started, 'answered when the job ended, not when the wait did').to.be.below(15_000);
      expect(settled.body.memoryIds).to.have.length(1);
      for (const wait of ['-1', '30001', 'soon', '1.5']) expectError(await alice().get(`/v1/jobs/${ack.body.jobId}?waitMs=${wait}`), 400, 'JOB.INVALID_WAIT');
      const bob = caller(service, KEYS.acme, 'bob');
      const hidden = Date.now();
      expectError(await bob.get(`/v1/jobs/${ack.body.jobId}?waitMs=20000`), 404, 'JOB.NOT_FOUND');
      expect(Date.now() - hidden, "another end user's job answers at once").to.be.below(5_000);
    });

    it('ingests a text memory, completes the job and finds it by search with its payload', async () => {
      const ack = await alice().post('/v1/memory', {
        source: { type: 'text', content: 'Caroline and I watched the horror movie "Hereditary" at the cinema yesterday. It was terrifying!' },
        userContext: 'movie night diary',
      });
      expect(ack.status).to.equal(202);
      expect(ack.body.status).to.equal('Accepted');
      expect(ack.body.jobId).to.match(/^job_\d{13}_alice$/);

      const job = await waitForJob(alice(), ack.body.jobId);
      expect(job.status).to.equal('Completed');
      expect(job.memoryIds).to.have.length(1);

      const found = await alice().post('/v1/search', { query: 'which scary film did I see?' });
      expect(found.status).to.equal(200);
      const hit = found.body.data.find((m: any) => m.id === job.memoryIds[0]);
      expect(hit, JSON.stringify(found.body)).to.exist;
      expect(hit.finalScore).to.be.within(0, 1);
      expect(hit.searchedWithNode).to.be.a('string').and.not.empty;
      expect(hit.payload.user_id).to.equal('alice');
      expect(hit.payload.content).to.include('Hereditary');
      expect(hit.payload.content).to.not.include('yesterday'); // resolved to an ISO date
      expect(hit.payload.created_at).to.be.a('number').and.be.closeTo(Date.now(), 5 * 60_000);
      expect(hit.payload.memory_type).to.be.a('string');
      expect(hit.payload.sentiment).to.be.a('string');
      expect(hit.payload.mentioned_titles).to.include('Hereditary');
      expect(hit.payload.movie_genre).to.equal('horror');
    });

    it('resolves relative dates against source.timestamp when backfilling', async () => {
      const ack = await alice().post('/v1/memory', { source: { type: 'text', content: 'I started my new job at the bakery yesterday', timestamp: '2023-05-08T13:56:00Z' } });
      expect(ack.status).to.equal(202);
      const job = await waitForJob(alice(), ack.body.jobId);
      const found = await alice().post('/v1/search', { query: 'new job at the bakery', options: { limit: 3 } });
      const hit = found.body.data.find((m: any) => m.id === job.memoryIds[0]);
      expect(hit.payload.content).to.include('2023-05-07');
      expect(hit.payload.created_at).to.equal(Date.parse('2023-05-08T13:56:00Z'));
      expect(hit.payload.event_times[0].iso).to.include('2023-05-07');
    });

    it('gives unique job ids to requests of one user in the same millisecond', async () => {
      const acks = await Promise.all(Array.from({ length: 20 }, (_, i) => alice().post('/v1/memory', { source: { type: 'text', content: `burst memory number ${i}` } })));
      const ids = acks.map((a) => a.body.jobId);
      expect(new Set(ids).size).to.equal(20);
    });

    it('respects options.limit and the default of 5', async () => {
      const acks = await Promise.all(Array.from({ length: 7 }, (_, i) => alice().post('/v1/memory', { source: { type: 'text', content: `I planted tomato seedling ${i} in the garden` } })));
      await Promise.all(acks.map((a) => waitForJob(alice(), a.body.jobId)));
      expect((await alice().post('/v1/search', { query: 'tomato garden' })).body.data).to.have.length(5);
      expect((await alice().post('/v1/search', { query: 'tomato garden', options: { limit: 2 } })).body.data).to.have.length(2);
    });

    it('accepts every strategy name', async () => {
      for (const strategy of ['direct_lookup', 'centroid_aware', 'entity_anchor', 'temporal_range']) {
        const res = await alice().post('/v1/search', { query: 'garden', strategy });
        expect(res.status, strategy).to.equal(200);
      }
    });

    it('routes automatically, shows the routing, and explains each result when asked', async () => {
      const ack = await alice().post('/v1/memory', { source: { type: 'text', content: 'Booked the ferry to Hydra, confirmation code FRY-88231, for my sister Ines', timestamp: '2024-03-04T09:00:00Z' } });
      const job = await waitForJob(alice(), ack.body.jobId);
      const byCode = await alice().post('/v1/search', { query: 'FRY-88231', options: { explain: true } });
      expect(byCode.body.routing.strategies).to.include('direct_lookup');
      expect(byCode.body.data[0].id).to.equal(job.memoryIds[0]);
      expect(byCode.body.data[0].explain.strategies.direct_lookup.rank).to.equal(1);
      const inMarch = await alice().post('/v1/search', { query: 'what did I book in March 2024?', options: { explain: true } });
      expect(inMarch.body.routing.strategies).to.include.members(['temporal_range', 'centroid_aware']);
      expect(inMarch.body.routing.centroidMode).to.be.oneOf(['META', 'SPECIFIC']);
      expect(inMarch.body.data[0].id).to.equal(job.memoryIds[0]);
      expect(inMarch.body.data[0].explain.fusion.score).to.be.within(0, 1);
      expect(inMarch.body.data[0].explain.rerankers.dynamic_scoring).to.have.keys(['recency', 'authority', 'score']);
      for (const hit of inMarch.body.data) expect(hit.explain).to.be.an('object');
      expect((await alice().post('/v1/search', { query: 'ferry' })).body.data[0]).to.not.have.property('explain');
    });

    it('searches by mode: factual, conceptual and hybrid answer with the Memory shape', async () => {
      for (const mode of ['factual', 'conceptual', 'hybrid']) {
        const res = await alice().post('/v1/memories/search', { mode, query: 'ferry trip with my sister', options: { limit: 3 } });
        expect(res.status, `${mode}: ${JSON.stringify(res.body)}`).to.equal(200);
        expect(res.body.routing.mode).to.equal(mode);
        expect(res.body.data.length).to.be.within(1, 3);
        for (const hit of res.body.data) {
          expect(hit).to.include.keys(['id', 'finalScore', 'payload', 'searchedWithNode']);
          expect(hit.finalScore).to.be.within(0, 1);
          expect(hit.payload.user_id).to.equal('alice');
        }
      }
      expect((await alice().post('/v1/memories/search', { mode: 'conceptual', query: 'travel' })).body.routing.centroidMode).to.equal('META');
      expect((await alice().post('/v1/memories/search', { mode: 'factual', query: 'travel' })).body.routing.centroidMode).to.equal('SPECIFIC');
    });

    describeSearchFilterScenarios(service);

    describe('errors', () => {
      it('401 without a key, with a malformed header and with an unknown key', async () => {
        expectError(await caller(service, null, 'alice').post('/v1/memory', { source: { type: 'text', content: 'x' } }), 401, 'AUTH.MISSING_KEY');
        expectError(await caller(service, null, 'alice').post('/v1/search', { query: 'x' }, { authorization: 'Token abc' }), 401, 'AUTH.MALFORMED');
        expectError(await caller(service, 'not-a-real-key-123456', 'alice').post('/v1/search', { query: 'x' }), 401, 'AUTH.INVALID_KEY');
      });
      it('400 without x-end-user-id', async () => {
        expectError(await caller(service, KEYS.acme, null).post('/v1/memory', { source: { type: 'text', content: 'x' } }), 400, 'REQUEST.MISSING_END_USER');
        expectError(await caller(service, KEYS.acme, null).post('/v1/search', { query: 'x' }), 400, 'REQUEST.MISSING_END_USER');
      });
      it('400 for bad bodies, 415 for a wrong content type, 413 for oversize text', async () => {
        expectError(await alice().post('/v1/memory', { source: { type: 'image', content: 'x' } }), 400, 'INGEST.INVALID_SOURCE_TYPE');
        expectError(await alice().post('/v1/memory', { source: { type: 'text' } }), 400, 'INGEST.MISSING_CONTENT');
        expectError(await alice().post('/v1/memory', '{"source":', {}), 400, 'REQUEST.INVALID_JSON');
        expectError(await alice().post('/v1/memory', { source: { type: 'text', content: 'x', timestamp: 'last tuesday' } }), 400, 'INGEST.INVALID_TIMESTAMP');
        expectError(await alice().post('/v1/memory', 'hello', { 'content-type': 'text/plain' }), 415, 'REQUEST.UNSUPPORTED_MEDIA_TYPE');
        expectError(await alice().post('/v1/memory', { source: { type: 'text', content: 'a'.repeat(40_000) } }), 413, 'INGEST.TOO_LARGE');
        expectError(await alice().post('/v1/memory', { source: { type: 'text', content: 'a'.repeat(300_000) } }), 413, 'REQUEST.TOO_LARGE');
        expectError(await alice().post('/v1/search', { query: 'x', strategy: 'telepathy' }), 400, 'SEARCH.UNKNOWN_STRATEGY');
        expectError(await alice().post('/v1/search', { query: 'x', options: { limit: 1000 } }), 400, 'SEARCH.INVALID_LIMIT');
        expectError(await alice().post('/v1/search', { query: '' }), 400, 'SEARCH.MISSING_QUERY');
        expectError(await alice().post('/v1/search', { query: 'x', options: { explain: 'yes' } }), 400, 'SEARCH.INVALID_FIELD');
        expectError(await alice().post('/v1/memories/search', { mode: 'telepathic', query: 'x' }), 400, 'SEARCH.UNKNOWN_MODE');
        expectError(await alice().post('/v1/memories/search', { query: 'x' }), 400, 'SEARCH.MISSING_MODE');
        expectError(await alice().post('/v1/memories/search', { mode: 'factual' }), 400, 'SEARCH.MISSING_QUERY');
        expectError(await caller(service, KEYS.acme, null).post('/v1/memories/search', { mode: 'factual', query: 'x' }), 400, 'REQUEST.MISSING_END_USER');
        expectError(await alice().get('/v1/jobs/job_1_nobody'), 404, 'JOB.NOT_FOUND');
        expectError(await alice().get('/v1/nowhere'), 404, 'ROUTE.NOT_FOUND');
      });
      it('text ingestion reads bodies as the JSON parser of every other route does (plain path and the rest alike)', async () => {
        const json = JSON.stringify({ source: { type: 'text', content: 'I planted basil on the balcony' } });
        expect((await alice().post('/v1/memory', gzipSync(json), { 'content-encoding': 'gzip' })).status, 'a gzip body').to.equal(202);
        expect((await alice().post('/v1/memory?trace=1', json)).status, 'a query string').to.equal(202);
        expect((await alice().post('/v1/memory', json, { 'content-type': 'application/json; charset=UTF-8' })).status).to.equal(202);
        expectError(await alice().post('/v1/memory', json, { 'content-type': 'application/json; charset=latin1' }), 415, 'REQUEST.UNSUPPORTED_ENCODING');
        expectError(await alice().post('/v1/memory', '"just a string"'), 400, 'REQUEST.INVALID_JSON');
        expectError(await alice().post('/v1/memory', '   '), 400, 'REQUEST.INVALID_JSON');
        expectError(await alice().post('/v1/memory', ''), 400, 'REQUEST.INVALID_BODY');
        expectError(await alice().post('/v1/memory', json, { 'x-end-user-timezone': 'Mars/Olympus' }), 400, 'REQUEST.INVALID_TIMEZONE');
        expectError(await caller(service, KEYS.acme, 'not a valid id!').post('/v1/memory', json), 400, 'REQUEST.INVALID_END_USER');
      });
    });

    describe('tenancy', () => {
      it('never shows one tenant or end user the memories of another', async () => {
        const secret = 'My locker combination at the Riverside gym is 4417';
        const ack = await alice().post('/v1/memory', { source: { type: 'text', content: secret } });
        await waitForJob(alice(), ack.body.jobId);
        const own = await alice().post('/v1/search', { query: 'locker combination at the gym' });
        expect(own.body.data.map((m: any) => m.payload.content)).to.include(secret);

        for (const [who, api] of [['other user, same tenant', caller(service, KEYS.acme, 'bob')], ['same user id, other tenant', caller(service, KEYS.globex, 'alice')]] as const) {
          const res = await api.post('/v1/search', { query: 'locker combination at the gym', options: { limit: 100 } });
          expect(res.status).to.equal(200);
          expect(res.body.data.map((m: any) => m.payload.content), who).to.not.include(secret);
          expect(res.body.data.every((m: any) => m.payload.user_id === (who.startsWith('other user') ? 'bob' : 'alice')), who).to.equal(true);
        }
        expect((await caller(service, KEYS.globex, 'alice').get(`/v1/jobs/${ack.body.jobId}`)).status).to.equal(404);
      });
    });
  });
}
