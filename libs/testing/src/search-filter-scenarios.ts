import { expect } from 'chai';
import { caller, expectError, waitForJob, type HasUrl } from './http-caller.js';
import { TEST_KEYS as KEYS } from './service-process.js';

/**
 * The `filters` of POST /v1/search and POST /v1/memories/search over HTTP, part of the API scenarios (so both modes run
 * them): a filtered search returns only matching memories, and still `limit` of them when the best unfiltered results
 * all fail the filter; each kind of condition; refusals; and another end user's memories stay out of reach.
 */
export function describeSearchFilterScenarios(service: HasUrl): void {
  describe('search filters', () => {
    const frank = () => caller(service, KEYS.acme, 'frank');
    const ids = { regatta: [] as string[], apollo: [] as string[], mercury: '', old: [] as string[], dated: '', oneJob: { jobId: '', memoryId: '' } };
    const ingest = async (content: string, extra: Record<string, unknown> = {}) => {
      const ack = await frank().post('/v1/memory', { source: { type: 'text', content, ...(extra['timestamp'] ? { timestamp: extra['timestamp'] } : {}) }, ...(extra['metadata'] ? { metadata: extra['metadata'] } : {}) });
      expect(ack.status, JSON.stringify(ack.body)).to.equal(202);
      const job = await waitForJob(frank(), ack.body.jobId);
      expect(job.status, JSON.stringify(job)).to.equal('Completed');
      return { jobId: ack.body.jobId as string, memoryId: job.memoryIds[0] as string };
    };
    const search = async (body: Record<string, unknown>, route = '/v1/search') => {
      const res = await frank().post(route, body);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.data as Array<{ id: string; payload: any }>;
    };

    before(async function () {
      this.timeout(240_000);
      // The query's best matches are all gemini regatta notes; the apollo memories mention sailing in passing.
      const regatta = await Promise.all(
        Array.from({ length: 8 }, (_, i) => ingest(`Sailing regatta on the lake, race ${i + 1}: our sailing crew won the regatta on the lake`, { metadata: { project: 'gemini', race: i + 1 } })),
      );
      ids.regatta = regatta.map((m) => m.memoryId);
      const apollo = await Promise.all(
        ['Bought a waterproof jacket, handy for sailing', 'Fixed the rudder of the old dinghy before sailing', 'Packed sandwiches; sailing tomorrow maybe'].map((content, i) => ingest(content, { metadata: { project: 'apollo', priority: i + 1 } })),
      );
      ids.apollo = apollo.map((m) => m.memoryId);
      ids.mercury = (await ingest('Read a book about the history of sailing ships', { metadata: { project: 'mercury', pinned: true } })).memoryId;
      ids.old = (await Promise.all(['Sailing lesson on the lake with the club', 'Sailing regatta on the lake, watched from the shore'].map((content) => ingest(content, { timestamp: '2021-06-15T10:00:00Z' })))).map((m) => m.memoryId);
      ids.dated = (await ingest('The regatta on the lake is on 2030-08-17, sailing with the club', { metadata: { project: 'gemini' } })).memoryId;
      ids.oneJob = await ingest('Sailing club membership renewed for the lake season');
    });

    it('returns only matching memories, and still up to limit of them when the best unfiltered results all fail the filter', async () => {
      const query = 'sailing regatta on the lake';
      const unfiltered = await search({ query, options: { limit: 3 } });
      expect(unfiltered).to.have.length(3);
      expect(unfiltered.some((hit) => hit.payload.metadata.project === 'apollo'), 'the best matches all fail the filter').to.equal(false);
      const filtered = await search({ query, options: { limit: 3 }, filters: { metadata: { project: 'apollo' } } });
      expect(filtered.map((hit) => hit.id).sort()).to.deep.equal([...ids.apollo].sort());
      const factual = await search({ mode: 'factual', query, options: { limit: 3 }, filters: { metadata: { project: 'apollo' } } }, '/v1/memories/search');
      expect(factual.map((hit) => hit.id).sort(), 'mode search').to.deep.equal([...ids.apollo].sort());
      for (const strategy of ['centroid_aware', 'temporal_range', 'direct_lookup', 'entity_anchor']) {
        const forced = await search({ query, strategy, options: { limit: 10 }, filters: { metadata: { project: 'apollo' } } });
        expect(forced.every((hit) => ids.apollo.includes(hit.id)), strategy).to.equal(true);
      }
    });

    it('takes metadata equality (numbers and booleans by their text) and in', async () => {
      const query = 'sailing';
      expect((await search({ query, filters: { metadata: { project: 'apollo', priority: 2 } } })).map((hit) => hit.id)).to.deep.equal([ids.apollo[1]]);
      expect((await search({ query, filters: { metadata: { pinned: true } } })).map((hit) => hit.id)).to.deep.equal([ids.mercury]);
      const either = await search({ query, options: { limit: 10 }, filters: { metadata: { project: { in: ['apollo', 'mercury'] } } } });
      expect(either.map((hit) => hit.id).sort()).to.deep.equal([...ids.apollo, ids.mercury].sort());
      const notGemini = await search({ query, options: { limit: 20 }, filters: { not: { metadata: { project: 'gemini' } } } });
      expect(notGemini.some((hit) => hit.payload.metadata.project === 'gemini')).to.equal(false);
      expect(notGemini.map((hit) => hit.id), 'memories without the key pass a not').to.include(ids.oneJob.memoryId);
    });

    it('takes memory_type, job_id and the creation and event-time ranges', async () => {
      const query = 'sailing on the lake';
      const type = (await search({ query, options: { limit: 1 } }))[0]!.payload.memory_type as string;
      const ofType = await search({ query, options: { limit: 20 }, filters: { memory_type: [type] } });
      expect(ofType.length).to.be.greaterThan(0);
      expect(ofType.every((hit) => hit.payload.memory_type === type)).to.equal(true);
      expect(await search({ query, filters: { memory_type: 'no_such_type' } })).to.deep.equal([]);

      expect((await search({ query, filters: { job_id: ids.oneJob.jobId } })).map((hit) => hit.id)).to.deep.equal([ids.oneJob.memoryId]);
      const old = await search({ query, options: { limit: 20 }, filters: { created_before: '2022-01-01' } });
      expect(old.map((hit) => hit.id).sort()).to.deep.equal([...ids.old].sort());
      const recent = await search({ query, options: { limit: 20 }, filters: { created_after: Date.parse('2022-01-01') } });
      expect(recent.some((hit) => ids.old.includes(hit.id))).to.equal(false);
      const dated = await search({ query, options: { limit: 20 }, filters: { event_after: '2030-08-01', event_before: '2030-09-01' } });
      expect(dated.map((hit) => hit.id)).to.deep.equal([ids.dated]);
      const both = await search({ query, options: { limit: 20 }, filters: { any: [{ job_id: ids.oneJob.jobId }, { event_after: '2030-08-01', event_before: '2030-09-01' }] } });
      expect(both.map((hit) => hit.id).sort()).to.deep.equal([ids.oneJob.memoryId, ids.dated].sort());
    });

    it('refuses a bad filter with 400 FILTER.INVALID or FILTER.UNKNOWN_FIELD on both routes', async () => {
      const refusals: Array<[string, Record<string, unknown>, string]> = [
        ['/v1/search', { query: 'x', filters: { memory_type: 7 } }, 'FILTER.INVALID'],
        ['/v1/search', { query: 'x', filters: { created_after: 'last week' } }, 'FILTER.INVALID'],
        ['/v1/search', { query: 'x', filters: { created_after: '2024-02-01', created_before: '2024-01-01' } }, 'FILTER.INVALID'],
        ['/v1/search', { query: 'x', filters: { metadata: { project: ['apollo'] } } }, 'FILTER.INVALID'],
        ['/v1/search', { query: 'x', filters: 'apollo' }, 'FILTER.INVALID'],
        ['/v1/search', { query: 'x', filters: { metdata: { project: 'apollo' } } }, 'FILTER.UNKNOWN_FIELD'],
        ['/v1/memories/search', { mode: 'hybrid', query: 'x', filters: { job_id: [] } }, 'FILTER.INVALID'],
        ['/v1/memories/search', { mode: 'hybrid', query: 'x', filters: { type: 'fact' } }, 'FILTER.UNKNOWN_FIELD'],
      ];
      for (const [route, body, code] of refusals) expectError(await frank().post(route, body), 400, code);
    });

    it("never reaches another end user's or tenant's memories, whatever the filter", async () => {
      const filters = { job_id: ids.oneJob.jobId, metadata: { project: { in: ['apollo', 'gemini', 'mercury'] } } };
      for (const other of [caller(service, KEYS.acme, 'grace'), caller(service, KEYS.globex, 'frank')]) {
        const res = await other.post('/v1/search', { query: 'sailing regatta on the lake', options: { limit: 100 }, filters });
        expect(res.status).to.equal(200);
        expect(res.body.data).to.deep.equal([]);
      }
    });
  });
}
