import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { Client } from '@elastic/elasticsearch';
import { lexicalTerms } from '@memory/lexical';
import type { JobRecord } from '@memory/ports';
import { StepTimings, withStepTimings } from '@memory/platform';
import { describeCentroidStoreContract, describeIdempotencyStoreContract, describeJobStoreContract, describeKeyStoreContract, describeVectorStoreContract, describeWebhookStoreContract, describeWithEngine, expectCode, skippedForEngine, freshScope, localEngines, memoryRecord, type StoreFactory, uniqueName } from '@memory/testing';
import { ElasticsearchCentroidStore } from './centroid-store.js';
import { SharedClient } from './client.js';
import { ElasticsearchIdempotencyStore } from './idempotency-store.js';
import { documentId, indexNames } from './names.js';
import { ElasticsearchWebhookStore } from './webhook-store.js';
import { dropElasticsearchStores, elasticsearchStoresOptionsFromEnv, openElasticsearchStores, type ElasticsearchStores, type ElasticsearchStoresOptions } from './index.js';

const DIMS = 8;
const { node } = elasticsearchStoresOptionsFromEnv();
// One prefix for the whole file: every contract test works in scopes of its own, and `after` drops the indices.
// A short refresh interval keeps the suite quick; 'wait_for' works the same at any interval.
const options: ElasticsearchStoresOptions = { node, prefix: uniqueName('test-stores'), dims: DIMS, refreshInterval: '100ms' };

const elasticsearch = localEngines().elasticsearch;

/** A one-shot signal between a held request and the test: `fire` it once reached, await `fired` to go on. */
function signal(): { fire: () => void; fired: Promise<void> } {
  let fire!: () => void;
  const fired = new Promise<void>((resolve) => (fire = resolve));
  return { fire, fired };
}

/** A harness over one open of the stores; reopen is a new connection pool over the same indices. */
function storesFactory<S>(pick: (stores: ElasticsearchStores) => S): StoreFactory<S> {
  return async () => {
    let stores: ElasticsearchStores | null = await openElasticsearchStores(options);
    const harness = {
      store: pick(stores),
      async reopen() {
        await stores?.close();
        stores = null;
        stores = await openElasticsearchStores(options);
        harness.store = pick(stores);
        return harness.store;
      },
      async cleanup() {
        await stores?.close();
        stores = null;
      },
    };
    return harness;
  };
}

describeWithEngine('stores-elasticsearch against Elasticsearch', elasticsearch, () => {
  after(async function () {
    this.timeout(30_000);
    if (skippedForEngine(this)) return;
    await dropElasticsearchStores(options);
  });

  describeVectorStoreContract('stores-elasticsearch', storesFactory((stores) => stores.vectors), { dims: DIMS });
  describeCentroidStoreContract('stores-elasticsearch', storesFactory((stores) => stores.centroids));
  describeJobStoreContract('stores-elasticsearch', storesFactory((stores) => stores.jobs));
  describeKeyStoreContract('stores-elasticsearch', storesFactory((stores) => stores.keys));
  describeIdempotencyStoreContract('stores-elasticsearch', storesFactory((stores) => stores.idempotency));
  describeWebhookStoreContract('stores-elasticsearch', storesFactory((stores) => stores.webhooks));

  describe('stores-elasticsearch', function () {
    this.timeout(60_000);
    const raw = new Client({ node });
    let stores: ElasticsearchStores;

    beforeEach(async () => {
      stores = await openElasticsearchStores(options);
    });

    afterEach(async () => {
      await stores.close();
    });

    after(async () => {
      await raw.close();
    });

    it('creates each index from its composable template: cosine HNSW dense_vector, keyword scope, date ranges', async () => {
      const name = `${options.prefix}-memories`;
      const { index_templates } = await raw.indices.getIndexTemplate({ name });
      expect(index_templates.map((t) => t.name)).to.deep.equal([name]);
      const mapping = (await raw.indices.getMapping({ index: name }))[name]!.mappings.properties!;
      expect(mapping['vector']).to.deep.include({ type: 'dense_vector', dims: DIMS, index: true, similarity: 'cosine' });
      expect((mapping['vector'] as { index_options?: { type?: string } }).index_options?.type).to.equal('hnsw');
      expect(mapping['tenantId']).to.deep.equal({ type: 'keyword' });
      expect(mapping['endUserId']).to.deep.equal({ type: 'keyword' });
      expect(mapping['eventRanges']).to.deep.include({ type: 'date_range' });
      const indices = await raw.cat.indices({ index: `${options.prefix}-*`, h: 'index', format: 'json' });
      expect(indices.map((row) => row.index).sort()).to.deep.equal(
        ['centroid-members', 'centroids', 'idempotency', 'jobs', 'keys', 'memories', 'webhook-deliveries', 'webhook-jobs', 'webhooks'].map((kind) => `${options.prefix}-${kind}`),
      );
    });

    it('writes one document per memory, keyed by scope and memory id, so a redelivery overwrites it', async () => {
      const scope = freshScope();
      const memory = memoryRecord(scope, 'm1', DIMS);
      await stores.vectors.upsert([memory]);
      await stores.vectors.upsert([{ ...memory, content: 'again' }]);
      const doc = await raw.get<{ content: string; eventRanges: unknown[] }>({ index: `${options.prefix}-memories`, id: documentId(scope.tenantId, scope.endUserId, 'm1') });
      expect(doc._version).to.equal(2);
      expect(doc._source!.content).to.equal('again');
    });

    it("makes upserts and deletes searchable when they resolve, concurrent writers sharing few refreshes ('shared')", async () => {
      // An index that never refreshes by itself in the test's time: only the writers' refreshes make anything visible.
      const slow: ElasticsearchStoresOptions = { ...options, prefix: uniqueName('test-shared-refresh'), refreshInterval: '60s' };
      const own = await openElasticsearchStores(slow);
      const index = `${slow.prefix}-memories`;
      const refreshes = async () => (await raw.indices.stats({ index, metric: 'refresh' }))._all.primaries!.refresh!.external_total!;
      try {
        const scope = freshScope();
        const before = await refreshes();
        await Promise.all(Array.from({ length: 20 }, (_, i) => own.vectors.upsert([memoryRecord(scope, `m${i}`, DIMS)])));
        expect(await own.vectors.count(scope)).to.equal(20);
        expect(await refreshes()).to.be.within(before + 1, before + 10);
        await own.vectors.upsert([memoryRecord(scope, 'late', DIMS)]);
        expect(await own.vectors.count(scope)).to.equal(21);
        await own.vectors.delete(scope, ['late', 'm0']);
        expect(await own.vectors.count(scope)).to.equal(19);
      } finally {
        await own.close();
        await dropElasticsearchStores(slow);
      }
    });

    it('gives kNN and BM25 hits their creation time (read with the id), so episode context need not ask for it', async () => {
      const scope = freshScope();
      const createdAt = Date.UTC(2024, 2, 3, 4, 5, 6, 789);
      await stores.vectors.upsert([memoryRecord(scope, 'm1', DIMS, { createdAt, content: 'zeppelin over the lakes' })]);
      const [nearest] = await stores.vectors.knn(scope, { vector: memoryRecord(scope, 'm1', DIMS).vector, k: 1 });
      const [matching] = await stores.vectors.textSearch(scope, { terms: lexicalTerms('zeppelin'), k: 1 });
      expect(nearest).to.include({ id: 'm1', createdAt });
      expect(matching).to.include({ id: 'm1', createdAt });
      expect((await stores.vectors.creationTimes(scope, ['m1'])).get('m1')).to.equal(createdAt);
    });

    it('refuses vectors of other dimensions than the index holds, and an open with other dims', async () => {
      const scope = freshScope();
      const wrong = memoryRecord(scope, 'm1', DIMS + 1);
      await expectCode(stores.vectors.upsert([wrong]), 'VECTORS.DIMENSION_MISMATCH');
      await expectCode(stores.vectors.knn(scope, { vector: new Float32Array(DIMS + 1).fill(1), k: 1 }), 'VECTORS.DIMENSION_MISMATCH');
      await expectCode(openElasticsearchStores({ ...options, dims: DIMS * 2 }), 'VECTORS.DIMENSION_MISMATCH');
    });

    it('reports an unreachable node as retriable UNAVAILABLE', async () => {
      const error = await expectCode(openElasticsearchStores({ ...options, node: 'http://127.0.0.1:9', maxRetries: 0 }), 'VECTORS.UNAVAILABLE');
      expect((error as unknown as { retriable: boolean }).retriable).to.equal(true);
    });

    it('loses no job update when two processes (two connection pools) update one job at once', async () => {
      const other = await openElasticsearchStores(options);
      try {
        const tenant = uniqueName('tenant');
        const bump = (current: JobRecord | null): JobRecord => ({
          jobId: 'job-1', tenantId: tenant, endUserId: 'u', state: 'Processing', stage: null,
          partCount: (current?.partCount ?? 0) + 1, memoryIds: [], errorCode: null, reason: null, acceptedAt: 1, updatedAt: 1,
        });
        await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? stores : other).jobs.update(tenant, 'job-1', bump)));
        expect((await stores.jobs.get(tenant, 'job-1'))!.partCount).to.equal(30);
      } finally {
        await other.close();
      }
    });

    it('writes the updates of many jobs that come together in a few requests, one read and one write per group', async () => {
      const tenant = uniqueName('tenant');
      const job = (jobId: string, current: JobRecord | null): JobRecord => ({
        jobId, tenantId: tenant, endUserId: 'u', state: 'Processing', stage: null,
        partCount: (current?.partCount ?? 0) + 1, memoryIds: [], errorCode: null, reason: null, acceptedAt: 1, updatedAt: 1,
      });
      const ids = Array.from({ length: 200 }, (_, i) => `job-${i}`);
      await stores.jobs.update(tenant, 'job-0', (current) => job('job-0', current));
      const timings = new StepTimings();
      await withStepTimings(timings, () => Promise.all(ids.map((jobId) => stores.jobs.update(tenant, jobId, (current) => job(jobId, current)))));
      const requests = timings.list().find((step) => step.step === 'elasticsearch')!.count;
      expect(requests, 'requests for 200 updates').to.be.at.most(20);
      const records = await Promise.all(ids.map((jobId) => stores.jobs.get(tenant, jobId)));
      expect(records.map((record) => record!.partCount)).to.deep.equal(ids.map((jobId) => (jobId === 'job-0' ? 2 : 1)));

      // Jobs just made (the edge's Accepted records) are created without a read: one request for the group.
      const created = new StepTimings();
      await withStepTimings(created, () => Promise.all(['new-1', 'new-2', 'new-3'].map((jobId) => stores.jobs.update(tenant, jobId, (current) => job(jobId, current), { likelyNew: true }))));
      expect(created.list().find((step) => step.step === 'elasticsearch')!.count).to.equal(1);
    });

    it('rejects a forget or erase of jobs whose bulk delete fails per item (a write block), and counts a missing job as nothing deleted', async () => {
      // _bulk answers 200 with the failures per item: the forget must not report the records gone while they stay.
      const own: ElasticsearchStoresOptions = { ...options, prefix: uniqueName('test-job-forget') };
      const blocked = await openElasticsearchStores(own);
      const index = `${own.prefix}-jobs`;
      const tenant = uniqueName('tenant');
      const job = (jobId: string): JobRecord => ({
        jobId, tenantId: tenant, endUserId: 'u', state: 'Completed', stage: null, partCount: 1, memoryIds: [], errorCode: null, reason: null, acceptedAt: 1, updatedAt: 1,
      });
      try {
        await blocked.jobs.update(tenant, 'job-1', () => job('job-1'));
        expect(await blocked.jobs.forget(tenant, ['never-there']), 'a job already gone').to.equal(0);
        await raw.indices.putSettings({ index, settings: { 'index.blocks.write': true } });
        try {
          const error = await blocked.jobs.forget(tenant, ['job-1', 'never-there']).then(
            (deleted) => expect.fail(`forget resolved ${deleted} under a write block`),
            (failure: unknown) => failure as { code: string; retriable: boolean },
          );
          expect(error.code).to.match(/^JOBS\./);
          const erasing = await blocked.jobs.erase({ tenantId: tenant, endUserId: null }, Date.now()).then(
            (erased) => expect.fail(`erase resolved ${erased} under a write block`),
            (failure: unknown) => failure as { code: string },
          );
          expect(erasing.code).to.equal(error.code);
        } finally {
          await raw.indices.putSettings({ index, settings: { 'index.blocks.write': false } });
        }
        expect(await blocked.jobs.get(tenant, 'job-1'), 'the job the failed forget left').to.not.equal(null);
        expect(await blocked.jobs.forget(tenant, ['job-1', 'never-there'])).to.equal(1);
        expect(await blocked.jobs.get(tenant, 'job-1')).to.equal(null);
      } finally {
        await blocked.close();
        await dropElasticsearchStores(own);
      }
    });

    it('counts the members of a centroid save even when it stopped before writing their member documents', async () => {
      const scope = freshScope();
      const centroid = { embeddingModel: 'test-model@1', sum: Float32Array.from([1, 0, 0, 0]), memoryCount: 1, similaritySum: 1 };
      const first = { version: 1, similarity: 1 };
      await stores.centroids.save(scope, centroid, new Map([['m1', first]]));
      const memberIndex = `${options.prefix}-centroid-members`;
      // A member document's id names the generation of the centroid it counts in.
      const { _source: saved } = await raw.get<{ generation: string }>({ index: `${options.prefix}-centroids`, id: documentId(scope.tenantId, scope.endUserId) });
      const m1Id = documentId(scope.tenantId, scope.endUserId, 'm1', saved!.generation);
      // What a crash right after the commit leaves: the centroid names m1, its member document is not there.
      await raw.delete({ index: memberIndex, id: m1Id });
      expect(await stores.centroids.members(scope, ['m1'])).to.deep.equal(new Map([['m1', first]]));
      // The next save writes it before its own commit replaces the pending list.
      const second = { version: 1, similarity: 0.5 };
      await stores.centroids.save(scope, { ...centroid, memoryCount: 2 }, new Map([['m2', second]]));
      const doc = await raw.get<{ version: number }>({ index: memberIndex, id: m1Id });
      expect(doc._source?.version).to.equal(1);
      expect(await stores.centroids.members(scope, ['m1', 'm2', 'm3'])).to.deep.equal(new Map([['m1', first], ['m2', second]]));
    });

    it('keeps the members of a replace that another process committed while an earlier replace was still clearing up', async () => {
      const scope = freshScope();
      const names = indexNames(options.prefix!);
      const centroid = (count: number) => ({ embeddingModel: 'test-model@1', sum: Float32Array.from([count, 0, 0, 0]), memoryCount: count, similaritySum: count });
      const member = { version: 1, similarity: 1 };
      await stores.centroids.save(scope, centroid(1), new Map([['m0', member]]));
      // Process A: its clean-up after the commit waits at its first request (a refresh) until B has replaced A's centroid.
      const slowClient = new Client({ node });
      const [cleaning, released] = [signal(), signal()];
      const refresh = slowClient.indices.refresh.bind(slowClient.indices);
      slowClient.indices.refresh = (async (...args: Parameters<typeof refresh>) => (cleaning.fire(), await released.fired, refresh(...args))) as unknown as typeof slowClient.indices.refresh;
      const a = new ElasticsearchCentroidStore(new SharedClient(slowClient), { centroids: names.centroids, members: names.centroidMembers }, 600_000);
      try {
        const replacing = a.replace(scope, centroid(2), new Map([['m1', member], ['m2', member]]), { ifRevision: (await a.get(scope))!.revision! });
        await cleaning.fired;
        // Process B reads A's committed centroid and replaces it.
        await stores.centroids.replace(scope, centroid(2), new Map([['m2', member], ['m3', member]]), { ifRevision: (await stores.centroids.get(scope))!.revision! });
        released.fire();
        await replacing;
        expect(await stores.centroids.members(scope, ['m0', 'm1', 'm2', 'm3'])).to.deep.equal(new Map([['m2', member], ['m3', member]]));
      } finally {
        released.fire();
        await a.close();
      }
    });

    it('reads the members of the centroid that counts when a replace comes between reading the centroid and its members', async () => {
      const scope = freshScope();
      const names = indexNames(options.prefix!);
      const centroid = { embeddingModel: 'test-model@1', sum: Float32Array.from([1, 0, 0, 0]), memoryCount: 1, similaritySum: 1 };
      const member = { version: 1, similarity: 1 };
      await stores.centroids.replace(scope, centroid, new Map([['m1', member]]), { ifRevision: null });
      // The reader's first read of the members waits until another process has replaced the centroid it read.
      const slowClient = new Client({ node });
      const [reading, released] = [signal(), signal()];
      const mget = slowClient.mget.bind(slowClient);
      let first = true;
      slowClient.mget = (async (...args: Parameters<typeof mget>) => {
        if (first) (first = false, reading.fire(), await released.fired);
        return mget(...args);
      }) as unknown as typeof slowClient.mget;
      const reader = new ElasticsearchCentroidStore(new SharedClient(slowClient), { centroids: names.centroids, members: names.centroidMembers }, 600_000);
      try {
        const members = reader.members(scope, ['m1', 'm2']);
        await reading.fired;
        await stores.centroids.replace(scope, centroid, new Map([['m1', member], ['m2', member]]), { ifRevision: (await stores.centroids.get(scope))!.revision! });
        released.fire();
        expect(await members).to.deep.equal(new Map([['m1', member], ['m2', member]]));
      } finally {
        released.fire();
        await reader.close();
      }
    });

    it('reads members saved before they carried a version as members of unknown share', async () => {
      const scope = freshScope();
      // What the store wrote before: member documents and pending lists of ids only.
      await raw.index({ index: `${options.prefix}-centroid-members`, id: documentId(scope.tenantId, scope.endUserId, 'm1'), document: { ...scope, memoryId: 'm1' }, refresh: true });
      await raw.index({
        index: `${options.prefix}-centroids`, id: documentId(scope.tenantId, scope.endUserId), refresh: true,
        document: { ...scope, embeddingModel: 'test-model@1', sum: [1, 1, 0, 0], memoryCount: 2, similaritySum: 1.8, pendingMemberIds: ['m2'] },
      });
      expect(await stores.centroids.members(scope, ['m1', 'm2', 'm3'])).to.deep.equal(new Map([['m1', null], ['m2', null]]));
      const corrected = { version: 2, similarity: 0.4 };
      await stores.centroids.save(scope, { embeddingModel: 'test-model@1', sum: Float32Array.from([1, 0, 1, 0]), memoryCount: 2, similaritySum: 1.4 }, new Map([['m2', corrected]]));
      expect(await stores.centroids.members(scope, ['m1', 'm2'])).to.deep.equal(new Map([['m1', null], ['m2', corrected]]));
    });

    /**
     * The bytes of an index's files, or null when they cannot be read here: only when the node runs on this machine
     * (the local engines do).
     */
    const indexFiles = async (index: string): Promise<(() => Buffer) | null> => {
      const fs = await raw.nodes.stats({ node_id: '_local', metric: 'fs' });
      const dataPath = Object.values(fs.nodes)[0]?.fs?.data?.[0]?.path;
      const uuid = (await raw.indices.getSettings({ index }))[index]?.settings?.index?.uuid;
      const indexDir = dataPath && uuid ? join(dataPath, 'indices', uuid) : null;
      if (!indexDir || !existsSync(indexDir)) return null;
      return () => Buffer.concat(readdirSync(indexDir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile()).map((f) => readFileSync(join(f.parentPath, f.name))));
    };

    /**
     * Writes documents holding `word` and others in one large segment, as documents end up once merges have run (a
     * deletion under a tenth of that segment's documents, which Elasticsearch's default expunge leaves alone), then
     * deletes those holding the word and waits until no file of the index holds it.
     */
    const expectExpunged = async (index: string, word: string, steps: { write(): Promise<void>; remove(): Promise<void> }) => {
      const bytes = await indexFiles(index);
      if (!bytes) return false;
      await steps.write();
      await raw.indices.forcemerge({ index, max_num_segments: 1 });
      await raw.indices.flush({ index });
      expect(bytes().includes(Buffer.from(word)), 'the check finds a stored word').to.equal(true);
      await steps.remove();
      const deadline = Date.now() + 100_000;
      for (;;) {
        await raw.indices.flush({ index });
        if (!bytes().includes(Buffer.from(word))) return true;
        if (Date.now() > deadline) expect.fail(`"${word}" still in the files of ${index} 100 s after its delete`);
        await new Promise((r) => setTimeout(r, 2_000));
      }
    };

    it('leaves no byte of a deleted memory in the index files once the expunging merge has run', async function () {
      this.timeout(120_000);
      const quick = await openElasticsearchStores({ ...options, expungeDelayMs: 35_000 });
      try {
        const scope = freshScope();
        const word = `capybaralantern${Date.now()}`;
        const expunged = await expectExpunged(`${options.prefix}-memories`, word, {
          write: async () => {
            await quick.vectors.upsert([{ ...memoryRecord(scope, 'm-gone', DIMS), content: `the ${word} is gone`, originalContent: `the ${word} is gone` }]);
            await quick.vectors.upsert(Array.from({ length: 40 }, (_, i) => memoryRecord(scope, `m-kept-${i}`, DIMS)));
          },
          remove: async () => void expect(await quick.vectors.delete(scope, ['m-gone'])).to.equal(1),
        });
        if (!expunged) this.skip();
      } finally {
        await quick.close();
      }
    });

    it('leaves no byte of a forgotten job\'s Idempotency-Key record (a PDF answer naming the file) in the index files once the expunging merge has run', async function () {
      this.timeout(120_000);
      const quick = await openElasticsearchStores({ ...options, expungeDelayMs: 35_000 });
      try {
        const scope = freshScope();
        const word = `wombatinvoice${Date.now()}`;
        const answer = (jobId: string, file: string) => ({ status: 202, body: { status: 'Accepted', jobId, storagePath: `acme/${scope.endUserId}/${jobId}/${file}.pdf` } });
        const answered = async (key: string, jobId: string, file: string) => {
          const claimed = await quick.idempotency.claim(scope, key, { fingerprint: `fp-${key}`, now: Date.now(), leaseMs: 60_000, ttlMs: 86_400_000, jobId });
          if (claimed.state !== 'claimed') expect.fail(`claim of ${key}: ${claimed.state}`);
          expect(await quick.idempotency.complete(scope, key, claimed.claim, answer(jobId, file), { now: Date.now(), ttlMs: 86_400_000 })).to.equal(true);
        };
        // The job id carries the word too: the answer lives in _source, whose compression hides a word from a byte
        // search, where the indexed job id is found; either goes only when the merge drops the deleted document.
        const gone = `doc_job_1_${word}`;
        const expunged = await expectExpunged(`${options.prefix}-idempotency`, word, {
          write: async () => {
            await answered('gone', gone, word);
            for (let i = 0; i < 40; i++) await answered(`kept-${i}`, `doc_job_1_kept${i}`, `kept-${i}`);
          },
          remove: async () => void expect(await quick.idempotency.forgetJobs(scope, [gone])).to.equal(1),
        });
        if (!expunged) this.skip();
      } finally {
        await quick.close();
      }
    });

    /**
     * What the file checks above show for memories and Idempotency-Key records holds for any index of that merge
     * policy, so here it is enough to see the merge asked for: each deletion below took a minute to check by files.
     */
    it('asks for an expunging merge after an endpoint\'s delete (its secrets) or rotation, not after the retention sweeps of deliveries and Idempotency-Key records', async () => {
      const client = new Client({ node });
      const merged: string[] = [];
      client.diagnostic.on('request', (_error, event) => {
        const path = event?.meta.request.params.path ?? '';
        // The stores ask for no other forcemerge than DelayedExpunge's.
        if (path.endsWith('/_forcemerge')) merged.push(decodeURIComponent(path.split('/')[1]!));
      });
      const names = indexNames(options.prefix!);
      const shared = new SharedClient(client);
      const webhooks = new ElasticsearchWebhookStore(shared, { endpoints: names.webhooks, deliveries: names.webhookDeliveries }, 50);
      const idempotency = new ElasticsearchIdempotencyStore(shared, names.idempotency, 50);
      /** The indices whose expunge `deletion` asked for, a delay after it. */
      const expungedBy = async (deletion: () => Promise<unknown>) => {
        merged.length = 0;
        await deletion();
        await new Promise((r) => setTimeout(r, 400));
        return [...new Set(merged)].sort();
      };
      try {
        const tenantId = uniqueName('tenant');
        const at = Date.now() - 86_400_000;
        const endpoint = { id: 'wh_1', tenantId, url: 'https://example.com/wh_1', events: ['job.completed' as const], secrets: [{ secret: 'whsec_old', expiresAt: null }], createdAt: at };
        const delivery = (id: string) => ({
          id, tenantId, endUserId: 'ann', webhookId: 'wh_1', eventType: 'job.completed' as const, body: `{"type":"job.completed","id":"${id}"}`,
          state: 'delivered' as const, attempts: 1, nextAttemptAt: null, lastStatus: 200, lastError: null, retryUntil: at + 86_400_000, createdAt: at, updatedAt: at,
        });
        await webhooks.createEndpoint(endpoint);
        await webhooks.enqueue(delivery('d-old'));
        await webhooks.enqueue(delivery('d-kept'));
        expect(await expungedBy(() => webhooks.updateEndpoint(tenantId, 'wh_1', (e) => ({ ...e, secrets: [{ secret: 'whsec_new', expiresAt: null }] }))), 'a rotation').to.deep.equal([names.webhooks]);
        expect(await expungedBy(() => webhooks.removeSettledBefore(at - 1)), 'a sweep that deleted nothing').to.deep.equal([]);
        expect(await expungedBy(async () => expect(await webhooks.updateDelivery(tenantId, 'wh_1', 'd-kept', (d) => ({ ...d, createdAt: at + 10 }))).to.not.equal(null)), 'a delivery update').to.deep.equal([]);
        expect(await expungedBy(async () => expect(await webhooks.removeSettledBefore(at + 1)).to.be.at.least(1)), 'the delivery log\'s retention').to.deep.equal([]);
        expect(await expungedBy(async () => expect(await webhooks.deleteEndpoint(tenantId, 'wh_1')).to.equal(true)), 'an endpoint\'s delete, with its deliveries').to.deep.equal([names.webhookDeliveries, names.webhooks].sort());
        const scope = freshScope();
        const claimed = await idempotency.claim(scope, 'k1', { fingerprint: 'fp', now: at, leaseMs: 60_000, ttlMs: 60_000, jobId: 'doc_job_1_x' });
        if (claimed.state !== 'claimed') expect.fail(`claim: ${claimed.state}`);
        expect(await idempotency.complete(scope, 'k1', claimed.claim, { status: 202, body: { status: 'Accepted', jobId: 'doc_job_1_x', storagePath: 'acme/x.pdf' } }, { now: at, ttlMs: 60_000 })).to.equal(true);
        expect(await expungedBy(async () => expect(await idempotency.removeExpired(at + 120_000)).to.be.at.least(1)), 'the Idempotency-Key records\' expiry sweep').to.deep.equal([]);
      } finally {
        await Promise.all([webhooks.close(), idempotency.close()]);
      }
    });

    it('rejects bad arguments with the embedded adapters\' codes, and use after close', async () => {
      await expectCode(stores.vectors.get({ tenantId: '', endUserId: 'u' }, ['m']), 'VECTORS.INVALID_SCOPE');
      await expectCode(stores.jobs.get('', 'job'), 'JOBS.INVALID_ARGUMENT');
      await expectCode(stores.vectors.knn(freshScope(), { vector: new Float32Array(DIMS), k: 3 }), 'VECTORS.INVALID_QUERY');
      await stores.close();
      await expectCode(stores.vectors.count(freshScope()), 'VECTORS.CLOSED');
      await expectCode(stores.jobs.get('t', 'j'), 'JOBS.CLOSED');
    });
  });
});
