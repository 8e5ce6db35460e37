import { expect } from 'chai';
import { Client } from '@elastic/elasticsearch';
import { Bm25Index, lexicalTerms, memoryTerms } from '@memory/lexical';
import type { MemoryRecord } from '@memory/ports';
import { describeWithEngine, skippedForEngine, freshScope, localEngines, memoryRecord, plainRecord, uniqueName } from '@memory/testing';
import { dropElasticsearchStores, elasticsearchStoresOptionsFromEnv, openElasticsearchStores, resolveElasticsearchStoresOptions, type ElasticsearchStoresOptions } from './index.js';
import { timesFromBytes, toMemoryDocument, vectorFromBytes } from './memory-document.js';
import { documentId } from './names.js';
import { idempotencyMapping, memoryMapping, SCHEMA_VERSION, webhookDeliveryMapping } from './templates.js';

const DIMS = 4;
const { node } = elasticsearchStoresOptionsFromEnv();

describeWithEngine('stores-elasticsearch schema migration', localEngines().elasticsearch, () => {
  const options: ElasticsearchStoresOptions = { node, prefix: uniqueName('test-migrate'), dims: DIMS, refreshInterval: '100ms' };
  const index = `${options.prefix}-memories`;
  const raw = new Client({ node });
  const scope = freshScope();
  const text = (content: string): Partial<MemoryRecord> => ({ content, originalContent: content });
  const records = [
    memoryRecord(scope, 'm1', DIMS, text('Watercolour painting class on the pier, booking BK-3391')),
    memoryRecord(scope, 'm2', DIMS, text('Painted the garden fence blue')),
    memoryRecord(scope, 'm3', DIMS, text('Fixed the bike chain before the ride')),
  ];

  before(async function () {
    this.timeout(30_000);
    // The memories index as schema version 1 made it, holding documents as version 1 wrote them.
    const mapping = memoryMapping(resolveElasticsearchStoresOptions(options));
    delete mapping.properties!['lexicalTerms'];
    delete mapping.properties!['identifiers'];
    delete mapping.properties!['metadataText'];
    delete mapping.properties!['vectorBytes'];
    delete mapping.properties!['timesBytes'];
    delete mapping._source;
    mapping._meta = { schemaVersion: 1, dims: DIMS };
    await raw.indices.create({ index, mappings: mapping, settings: { number_of_replicas: 0 } });
    const operations = records.flatMap((record) => {
      const { lexicalTerms: _terms, identifiers: _identifiers, metadataText: _metadata, vectorBytes: _bytes, timesBytes: _times, ...version1 } = toMemoryDocument(record);
      return [{ index: { _index: index, _id: documentId(scope.tenantId, scope.endUserId, record.id) } }, version1];
    });
    await raw.bulk({ operations, refresh: true });
  });

  /** The vectorBytes doc values of these memories, read raw, in the order asked (null where there is none). */
  const filledVectors = async (ids: string[]) => {
    const response = await raw.search({ index, query: { terms: { id: ids } }, size: ids.length, _source: false, docvalue_fields: ['id', 'vectorBytes'] });
    const byId = new Map(response.hits.hits.map((hit) => [String(hit.fields!['id']![0]), hit.fields?.['vectorBytes']?.[0] as string | undefined]));
    return ids.map((id) => (byId.get(id) ? Array.from(vectorFromBytes(byId.get(id)!)) : null));
  };

  /** The timesBytes doc values of these memories, read raw, in the order asked (null where there is none). */
  const filledTimes = async (ids: string[]) => {
    const response = await raw.search({ index, query: { terms: { id: ids } }, size: ids.length, _source: false, docvalue_fields: ['id', 'timesBytes'] });
    const byId = new Map(response.hits.hits.map((hit) => [String(hit.fields!['id']![0]), hit.fields?.['timesBytes']?.[0] as string | undefined]));
    return ids.map((id) => (byId.get(id) ? timesFromBytes(byId.get(id)!) : null));
  };

  after(async function () {
    this.timeout(30_000);
    if (skippedForEngine(this)) return;
    await dropElasticsearchStores(options);
    await raw.close();
  });

  it('adds the new fields to the existing index, fills them into its documents and records the current version, once', async function () {
    this.timeout(30_000);
    const stores = await openElasticsearchStores(options);
    try {
      const { mappings } = (await raw.indices.getMapping({ index }))[index]!;
      expect(mappings.properties!['lexicalTerms']).to.deep.include({ type: 'text', analyzer: 'whitespace' });
      expect(mappings.properties!['identifiers']).to.deep.equal({ type: 'keyword' });
      expect(mappings.properties!['metadataText']).to.deep.equal({ type: 'flattened' });
      expect(mappings.properties!['vectorBytes']).to.deep.equal({ type: 'binary', doc_values: true });
      expect(mappings.properties!['timesBytes']).to.deep.equal({ type: 'binary', doc_values: true });
      expect(mappings._meta).to.deep.equal({ schemaVersion: SCHEMA_VERSION, dims: DIMS });
      const settings = (await raw.indices.getSettings({ index, flat_settings: true }))[index]!.settings as Record<string, unknown>;
      expect(settings['index.merge.policy.expunge_deletes_allowed'], 'an expunging merge takes every segment with a deletion').to.equal('0');

      expect((await stores.vectors.textSearch(scope, { terms: lexicalTerms('painting'), k: 5 })).map((h) => h.id).sort()).to.deep.equal(['m1', 'm2']);
      expect(await stores.vectors.findByIdentifiers(scope, ['bk-3391'], 5)).to.deep.equal(['m1']);
      expect(await stores.vectors.findByIdentifiers(scope, ['job-m3'], 5)).to.deep.equal(['m3']);
      const read = await stores.vectors.get(scope, ['m1']);
      expect(read.map(plainRecord)).to.deep.equal([plainRecord(records[0]!)]);
      expect(await filledVectors(records.map((r) => r.id))).to.deep.equal(records.map((r) => Array.from(r.vector)));
      expect(await filledTimes(records.map((r) => r.id))).to.deep.equal(records.map((r) => ({ createdAt: r.createdAt, eventTimes: [] })));
    } finally {
      await stores.close();
    }
    const versions = async () => (await raw.mget({ index, ids: records.map((r) => documentId(scope.tenantId, scope.endUserId, r.id)) })).docs.map((d) => ('_version' in d ? d._version : null));
    expect(await versions()).to.deep.equal([2, 2, 2]);
    await (await openElasticsearchStores(options)).close();
    expect(await versions(), 'a second open finds nothing to migrate').to.deep.equal([2, 2, 2]);
  });

  // Before any test deletes a document: deleted documents count in Lucene's statistics until segments merge.
  it('scores as the embedded BM25 index does over the same memories', async function () {
    this.timeout(30_000);
    const stores = await openElasticsearchStores(options);
    try {
      const reference = new Bm25Index();
      for (const record of records) reference.add(record.id, memoryTerms(record));
      for (const query of ['painting fence', 'bike ride garden', 'class']) {
        const terms = lexicalTerms(query);
        const expected = reference.search(terms, 10);
        const hits = await stores.vectors.textSearch(scope, { terms, k: 10 });
        expect(hits.map((h) => h.id), query).to.deep.equal(expected.map((h) => h.id));
        // Lucene stores document lengths in one byte (exact for short ones), so scores agree closely, not exactly.
        hits.forEach((hit, i) => expect(hit.score, `${query}: ${hit.id}`).to.be.closeTo(expected[i]!.score, expected[i]!.score * 0.02));
      }
    } finally {
      await stores.close();
    }
  });

  it('fills, at the next open, a document a writer of the old version added after the migration', async function () {
    this.timeout(30_000);
    const late = memoryRecord(scope, 'late', DIMS, text('Rowing regatta tickets RG-8812'));
    const { lexicalTerms: _terms, identifiers: _identifiers, metadataText: _metadata, vectorBytes: _bytes, timesBytes: _times, ...version1 } = toMemoryDocument(late);
    await raw.index({ index, id: documentId(scope.tenantId, scope.endUserId, 'late'), document: version1, refresh: true });
    const stores = await openElasticsearchStores(options);
    try {
      expect(await stores.vectors.findByIdentifiers(scope, ['rg-8812'], 5)).to.deep.equal(['late']);
      expect((await stores.vectors.textSearch(scope, { terms: lexicalTerms('regatta'), k: 5 })).map((h) => h.id)).to.deep.equal(['late']);
      expect(await filledVectors(['late'])).to.deep.equal([Array.from(late.vector)]);
    } finally {
      await stores.vectors.delete(scope, ['late']);
      await stores.close();
    }
  });

  it('reads the vector of a document an old writer left without vectorBytes while the stores are open', async function () {
    this.timeout(30_000);
    const stores = await openElasticsearchStores(options);
    try {
      const unfilled = memoryRecord(scope, 'unfilled', DIMS, text('Kayak rental by the lake'));
      const { vectorBytes: _bytes, ...older } = toMemoryDocument(unfilled);
      await raw.index({ index, id: documentId(scope.tenantId, scope.endUserId, 'unfilled'), document: older, refresh: true });
      expect(await filledVectors(['unfilled', 'm1'])).to.deep.equal([null, Array.from(records[0]!.vector)]);
      const vectors = await stores.vectors.vectors(scope, ['unfilled', 'm1']);
      expect(Array.from(vectors.get('unfilled')!)).to.deep.equal(Array.from(unfilled.vector));
      expect(Array.from(vectors.get('m1')!)).to.deep.equal(Array.from(records[0]!.vector));
    } finally {
      await stores.vectors.delete(scope, ['unfilled']);
      await stores.close();
    }
  });

  it('finds in a time range a document an old writer left without timesBytes while the stores are open', async function () {
    this.timeout(30_000);
    const stores = await openElasticsearchStores(options);
    try {
      const day = Date.UTC(2023, 6, 14);
      const at = (start: number, end = start) => ({ text: 't', index: 0, start, end, iso: '', relative: false });
      const unfilled = memoryRecord(scope, 'unfilled-times', DIMS, { ...text('Picnic at the lake'), eventTimes: [at(day + 3_600_000, day + 7_200_000)] });
      const filled = memoryRecord(scope, 'filled-times', DIMS, { ...text('Concert in the park'), eventTimes: [at(day + 43_200_000)] });
      await stores.vectors.upsert([filled]);
      const { timesBytes: _times, ...older } = toMemoryDocument(unfilled);
      await raw.index({ index, id: documentId(scope.tenantId, scope.endUserId, 'unfilled-times'), document: older, refresh: true });
      expect(await filledTimes(['unfilled-times', 'filled-times'])).to.deep.equal([null, { createdAt: filled.createdAt, eventTimes: [{ start: day + 43_200_000, end: day + 43_200_000 }] }]);
      expect(await stores.vectors.inTimeRange(scope, { from: day, to: day + 86_400_000 }, 5)).to.deep.equal([
        { id: 'filled-times', time: day + 43_200_000 },
        { id: 'unfilled-times', time: day + 7_200_000 },
      ]);
    } finally {
      await stores.vectors.delete(scope, ['unfilled-times', 'filled-times']);
      await stores.close();
    }
  });
});

describeWithEngine('stores-elasticsearch idempotency schema migration', localEngines().elasticsearch, () => {
  const options: ElasticsearchStoresOptions = { node, prefix: uniqueName('test-migrate-idempotency'), dims: DIMS };
  const index = `${options.prefix}-idempotency`;
  const raw = new Client({ node });
  const alice = { tenantId: uniqueName('tenant'), endUserId: 'alice' };
  const bob = { ...alice, endUserId: 'bob' };
  const now = Date.now();
  // Records as schema 7 kept them: the claim's job id in _source, unindexed; a PATCH's only in its answer.
  const records = [
    { scope: alice, key: 'ingest', jobId: 'job_1_alice', response: null },
    { scope: alice, key: 'update', jobId: null, response: { status: 202, body: { status: 'Accepted', jobId: 'upd_job_2_alice' } } },
    { scope: alice, key: 'no-job', jobId: null, response: null },
    { scope: bob, key: 'ingest', jobId: 'job_1_alice', response: null },
  ];

  before(async function () {
    this.timeout(30_000);
    const mapping = idempotencyMapping();
    delete mapping.properties!['jobId'];
    mapping._meta = { schemaVersion: 7 };
    await raw.indices.create({ index, mappings: mapping, settings: { number_of_replicas: 0 } });
    const operations = records.flatMap(({ scope, key, jobId, response }) => [
      { index: { _index: index, _id: documentId(scope.tenantId, scope.endUserId, key) } },
      { ...scope, key, fingerprint: `fp-${key}`, leaseUntil: now + 60_000, expiresAt: now + 86_400_000, response, jobId },
    ]);
    await raw.bulk({ operations, refresh: true });
  });

  after(async function () {
    this.timeout(30_000);
    if (skippedForEngine(this)) return;
    await dropElasticsearchStores(options);
    await raw.close();
  });

  it('indexes the job each record names, kept with its claim or in its answer, so forgetting a job finds the records from before', async function () {
    this.timeout(30_000);
    const stores = await openElasticsearchStores(options);
    try {
      const { mappings } = (await raw.indices.getMapping({ index }))[index]!;
      expect(mappings.properties!['jobId']).to.deep.equal({ type: 'keyword' });
      expect(mappings._meta).to.deep.equal({ schemaVersion: SCHEMA_VERSION });
      expect(await stores.idempotency.forgetJobs(alice, ['job_1_alice', 'upd_job_2_alice'])).to.equal(2);
      expect(await stores.idempotency.forgetUser(alice), 'the claim that names no job').to.equal(1);
      expect(await stores.idempotency.forgetUser(bob), 'another end user\'s record naming the same id').to.equal(1);
    } finally {
      await stores.close();
    }
  });
});

describeWithEngine('stores-elasticsearch webhook deliveries schema migration', localEngines().elasticsearch, () => {
  const options: ElasticsearchStoresOptions = { node, prefix: uniqueName('test-migrate-deliveries'), dims: DIMS };
  const index = `${options.prefix}-webhook-deliveries`;
  const raw = new Client({ node });
  const ann = { tenantId: uniqueName('tenant'), endUserId: 'ann' };
  const erasureAt = 1_800_000_000_000;
  // Deliveries as schema 8 kept them: the job only in the body. The first is of a job accepted before the erasure
  // whose report came after it.
  const deliveries = [
    { id: 'accepted-before', jobId: `job_${erasureAt - 5}_ann`, createdAt: erasureAt + 20 },
    { id: 'accepted-after', jobId: `job_${erasureAt + 5}_ann`, createdAt: erasureAt + 20 },
    { id: 'forgotten-job', jobId: `job_${erasureAt + 7}_ann`, createdAt: erasureAt + 20 },
  ];

  before(async function () {
    this.timeout(30_000);
    const mapping = webhookDeliveryMapping();
    delete mapping.properties!['jobId'];
    delete mapping.properties!['jobAcceptedAt'];
    mapping._meta = { schemaVersion: 8 };
    await raw.indices.create({ index, mappings: mapping, settings: { number_of_replicas: 0 } });
    const operations = deliveries.flatMap(({ id, jobId, createdAt }) => [
      { index: { _index: index, _id: documentId(ann.tenantId, 'wh_1', id) } },
      {
        id, ...ann, webhookId: 'wh_1', endpointKey: `${ann.tenantId}\nwh_1`, eventType: 'job.completed', body: JSON.stringify({ type: 'job.completed', data: { jobId } }),
        state: 'delivered', attempts: 1, nextAttemptAt: null, lastStatus: 200, lastError: null, retryUntil: createdAt + 1, createdAt, updatedAt: createdAt,
      },
    ]);
    await raw.bulk({ operations, refresh: true });
  });

  after(async function () {
    this.timeout(30_000);
    if (skippedForEngine(this)) return;
    await dropElasticsearchStores(options);
    await raw.close();
  });

  it('indexes the job each delivery\'s body names and its accept time, so forgetting a job or an erasure finds the deliveries from before, and expunges them', async function () {
    this.timeout(30_000);
    const stores = await openElasticsearchStores(options);
    try {
      const { mappings } = (await raw.indices.getMapping({ index }))[index]!;
      expect(mappings.properties!['jobId']).to.deep.equal({ type: 'keyword' });
      expect(mappings.properties!['jobAcceptedAt']).to.deep.equal({ type: 'long' });
      expect(mappings._meta).to.deep.equal({ schemaVersion: SCHEMA_VERSION });
      const settings = (await raw.indices.getSettings({ index, flat_settings: true }))[index]!.settings as Record<string, unknown>;
      expect(settings['index.merge.policy.expunge_deletes_allowed'], 'an expunging merge takes every segment with a deletion').to.equal('0');
      expect(await stores.webhooks.forgetJobs(ann, [deliveries[2]!.jobId])).to.equal(1);
      expect(await stores.webhooks.forgetUser(ann, erasureAt), 'the job accepted before the erasure, reported after it').to.equal(1);
      expect((await stores.webhooks.listDeliveries(ann.tenantId, 'wh_1', 10)).map((d) => d.id)).to.deep.equal(['accepted-after']);
    } finally {
      await stores.close();
    }
  });
});
