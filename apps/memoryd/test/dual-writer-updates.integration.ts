import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MemoryEnriched } from '@memory/contracts';
import { graphIds, type GraphStore, type VectorStore } from '@memory/ports';
import type { Incoming } from '@memory/pipeline-runtime';
import { dualWriterStage } from '@memory/stage-dual-writer';
import { createEmbeddedGraphStore } from '@memory/graph-embedded';
import { createEmbeddedVectorStore } from '@memory/vectors-embedded';

/** The dual-writer on the real embedded stores: an update replaces the memory, its graph and its version. */
describe('dual-writer: updates on the embedded stores', function () {
  this.timeout(30_000);
  let dir: string;
  let vectors: VectorStore;
  let visualVectors: VectorStore;
  let graph: GraphStore;
  const scope = { tenantId: 't', endUserId: 'u' };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dual-writer-'));
    vectors = createEmbeddedVectorStore({ dir: join(dir, 'vectors') });
    visualVectors = createEmbeddedVectorStore({ dir: join(dir, 'visual') });
    graph = createEmbeddedGraphStore({ dir: join(dir, 'graph') });
  });
  afterEach(async () => {
    await Promise.all([vectors.close(), visualVectors.close(), graph.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  const enriched = (jobId: string, content: string, entities: string[], cause: MemoryEnriched['cause'], acceptedAt: number): Incoming<'enriched'> => ({
    event: 'enriched', topic: 'memory.enriched', partition: 0, offset: acceptedAt, key: 't/u', timestamp: acceptedAt,
    value: {
      memoryId: 'mem_job_1_u_0', jobId, tenantId: 't', endUserId: 'u', kind: 'text', partIndex: 0, partCount: 1, acceptedAt, createdAt: 1,
      content, originalContent: content, userContext: null, eventTimes: [], memoryType: 'fact', themes: [], synonyms: [], keywords: [],
      entities: entities.map((name) => ({ name, type: 'place', key: name.toLowerCase() })), sentiment: 'neutral', sentimentScore: 0,
      movieGenre: null, mentionedTitles: [], embeddingModel: 'm@1', vector: [1, 0, 0], blob: null, image: null, document: null, metadata: null, cause,
    },
  });
  const write = (...batch: Array<Incoming<'enriched'>>) => dualWriterStage.process(batch, { vectors, graph, visualVectors, keys: { forgotten: async () => new Set() } });
  const entitiesOfMemory = async () => (await graph.neighbours(scope, graphIds.memory('mem_job_1_u_0'), { depth: 1, edgeKinds: ['mentions'] })).map(({ node }) => node.label).sort();
  const versionOf = async () => (await vectors.get(scope, ['mem_job_1_u_0']))[0]?.version;

  it('rewrites the memory under its id and job, drops the entities only the old version mentioned, numbers the version', async () => {
    const ingest = enriched('job_1_u', 'Lisbon and Porto', ['Lisbon', 'Porto'], 'ingest', 1);
    const update = enriched('upd_job_5_u', 'Porto and Faro', ['Porto', 'Faro'], 'update', 5);
    await write(ingest);
    const [[committed]] = (await write(update)) as unknown as [[{ value: { version: number } }]];
    expect(committed.value.version).to.equal(2);
    const [memory] = await vectors.get(scope, ['mem_job_1_u_0']);
    expect([memory!.content, memory!.jobId, memory!.version]).to.deep.equal(['Porto and Faro', 'job_1_u', 2]);
    expect(await entitiesOfMemory()).to.deep.equal(['Faro', 'Porto']);
    expect(await graph.findEntities(scope, ['lisbon']), 'the entity nothing mentions any more').to.deep.equal([]);

    // Redelivered or replayed, in any batch shape, the same versions: the older never overwrites the newer.
    await write(ingest, update);
    await write(ingest);
    expect(await versionOf()).to.equal(2);
    expect((await vectors.history(scope, 'mem_job_1_u_0'))!.map((v) => [v.version, v.jobId, v.cause])).to.deep.equal([[1, 'job_1_u', 'ingest'], [2, 'upd_job_5_u', 'update']]);
    expect(await entitiesOfMemory()).to.deep.equal(['Faro', 'Porto']);
  });

  it('writes nowhere an update of a memory deleted since it was accepted, and fails its job (the delete wins)', async () => {
    const ingest = enriched('job_1_u', 'Lisbon and Porto', ['Lisbon', 'Porto'], 'ingest', 1);
    const update = enriched('upd_job_5_u', 'Porto and Faro', ['Porto', 'Faro'], 'update', 5);
    await write(ingest);
    await vectors.delete(scope, ['mem_job_1_u_0']);
    await graph.deleteNodes(scope, [graphIds.memory('mem_job_1_u_0')]);
    const [emitted] = await write(update);
    expect(emitted!.map((emit) => [emit.event, (emit.value as { state?: string; errorCode?: string | null }).state, (emit.value as { errorCode?: string | null }).errorCode])).to.deep.equal([['jobStatus', 'Failed', 'MEMORY.FORGOTTEN']]);
    expect(await vectors.get(scope, ['mem_job_1_u_0'])).to.deep.equal([]);
    expect(await graph.findEntities(scope, ['faro']), 'nothing of the update in the graph').to.deep.equal([]);
  });

  it('drops the entities an update leaves behind also when its first attempt failed after the graph was rewritten', async () => {
    await write(enriched('job_1_u', 'Lisbon and Porto', ['Lisbon', 'Porto'], 'ingest', 1));
    const update = enriched('upd_job_5_u', 'Porto', ['Porto'], 'update', 5);
    // The vector store refuses the new version once, as an engine that fails mid-batch would; the runner retries the batch.
    const failingOnce = Object.create(vectors) as VectorStore;
    let refused = false;
    failingOnce.upsertIf = async (writes) => {
      if (!refused) {
        refused = true;
        throw new Error('vector store unavailable');
      }
      return vectors.upsertIf(writes);
    };
    const deps = { vectors: failingOnce, graph, visualVectors, keys: { forgotten: async () => new Set<string>() } };
    let firstAttempt: unknown;
    await dualWriterStage.process([update], deps).catch((error: unknown) => { firstAttempt = error; });
    expect(String(firstAttempt)).to.include('vector store unavailable');
    await dualWriterStage.process([update], deps);
    expect(await versionOf()).to.equal(2);
    expect(await entitiesOfMemory()).to.deep.equal(['Porto']);
    expect(await graph.findEntities(scope, ['lisbon']), 'the entity only the old version mentioned').to.deep.equal([]);
  });

  it('applies two updates of one batch in order, the graph of the last one kept', async () => {
    await write(enriched('job_1_u', 'Lisbon', ['Lisbon'], 'ingest', 1));
    await write(enriched('upd_job_5_u', 'Porto', ['Porto'], 'update', 5), enriched('upd_job_6_u', 'Faro', ['Faro'], 'update', 6));
    expect(await versionOf()).to.equal(3);
    expect((await vectors.get(scope, ['mem_job_1_u_0']))[0]!.content).to.equal('Faro');
    expect(await entitiesOfMemory()).to.deep.equal(['Faro']);
    expect(await graph.findEntities(scope, ['lisbon', 'porto'])).to.deep.equal([]);
  });
});
