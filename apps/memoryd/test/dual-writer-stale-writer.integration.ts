import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MemoryEnriched } from '@memory/contracts';
import type { GraphStore, VectorStore } from '@memory/ports';
import type { Incoming } from '@memory/pipeline-runtime';
import { dualWriterStage } from '@memory/stage-dual-writer';
import { createEmbeddedGraphStore } from '@memory/graph-embedded';
import { createEmbeddedVectorStore } from '@memory/vectors-embedded';
import { dropElasticsearchStores, elasticsearchStoresOptionsFromEnv, openElasticsearchStores, type ElasticsearchStoresOptions } from '@memory/stores-elasticsearch';
import { describeWithEngine, localEngines, skippedForEngine, uniqueName } from '@memory/testing';

const scope = { tenantId: 't', endUserId: 'u' };
const memoryId = 'mem_job_1_u_0';

const enriched = (jobId: string, content: string, cause: MemoryEnriched['cause'], acceptedAt: number): Incoming<'enriched'> => ({
  event: 'enriched', topic: 'memory.enriched', partition: 0, offset: acceptedAt, key: 't/u', timestamp: acceptedAt,
  value: {
    memoryId, jobId, tenantId: 't', endUserId: 'u', kind: 'text', partIndex: 0, partCount: 1, acceptedAt, createdAt: 1,
    content, originalContent: content, userContext: null, eventTimes: [], memoryType: 'fact', themes: [], synonyms: [], keywords: [],
    entities: [], sentiment: 'neutral', sentimentScore: 0, movieGenre: null, mentionedTitles: [], embeddingModel: 'm@1', vector: [1, 0, 0],
    blob: null, image: null, document: null, metadata: null, cause,
  },
});
const ingest = enriched('job_1_u', 'Lisbon', 'ingest', 1);
const update = enriched('upd_job_5_u', 'Porto', 'update', 5);
const correction = enriched('upd_job_6_u', 'Faro', 'update', 6);

/**
 * The vector store as a consumer dropped from its group mid-batch sees it: its batch has read and decided, and its
 * first write (whichever method writes the version) waits until `release`, while the partition's new owner works.
 */
function holdingFirstWrite(vectors: VectorStore) {
  let reached!: () => void;
  let release!: () => void;
  const atWrite = new Promise<void>((resolve) => (reached = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = false;
  const hold = async <T>(write: () => Promise<T>): Promise<T> => {
    if (!held) {
      held = true;
      reached();
      await released;
    }
    return write();
  };
  const store: VectorStore = Object.create(vectors, {
    upsert: { value: (records: Parameters<VectorStore['upsert']>[0]) => hold(() => vectors.upsert(records)) },
    upsertIf: { value: (writes: Parameters<VectorStore['upsertIf']>[0]) => hold(() => vectors.upsertIf(writes)) },
  });
  return { store, atWrite, release };
}

/**
 * Two dual writers on one memory: the stale one read before the other wrote. Its version write must not replace what
 * the other wrote since; it reads again and decides again, so its job's version, already stored, is a no-op.
 */
function describeStaleWriter(stores: () => { vectors: VectorStore; visualVectors: VectorStore; graph: GraphStore }): void {
  const deps = (vectors: VectorStore) => ({ ...stores(), vectors, keys: { forgotten: async () => new Set<string>() } });
  const write = (...batch: Array<Incoming<'enriched'>>) => dualWriterStage.process(batch, deps(stores().vectors));
  const stored = async () => {
    const [memory] = await stores().vectors.get(scope, [memoryId]);
    return { content: memory?.content, version: memory?.version, history: memory?.versions?.map((v) => [v.version, v.jobId]) };
  };
  const versionCommitted = (emitted: unknown) => (emitted as Array<Array<{ value: { version: number } }>>)[0]![0]!.value.version;

  it('does not bring back an older version over a correction the new owner wrote meanwhile', async () => {
    await write(ingest);
    const stale = holdingFirstWrite(stores().vectors);
    const staleBatch = dualWriterStage.process([update], deps(stale.store));
    await stale.atWrite;
    // The partition's new owner: the same update again (redelivered to it), then a correction of the memory.
    await write(update);
    await write(correction);
    stale.release();
    expect(versionCommitted(await staleBatch), 'the stale batch reports its job\'s version').to.equal(2);
    expect(await stored()).to.deep.equal({ content: 'Faro', version: 3, history: [[1, 'job_1_u'], [2, 'upd_job_5_u'], [3, 'upd_job_6_u']] });
  });

  it('succeeds as a no-op when the version it decided was written meanwhile by the same job', async () => {
    await write(ingest);
    const stale = holdingFirstWrite(stores().vectors);
    const staleBatch = dualWriterStage.process([update], deps(stale.store));
    await stale.atWrite;
    await write(update);
    stale.release();
    expect(versionCommitted(await staleBatch)).to.equal(2);
    expect(await stored()).to.deep.equal({ content: 'Porto', version: 2, history: [[1, 'job_1_u'], [2, 'upd_job_5_u']] });
  });

  it('loses a first write to a concurrent first write of the same memory, and then finds it written', async () => {
    const stale = holdingFirstWrite(stores().vectors);
    const staleBatch = dualWriterStage.process([ingest], deps(stale.store));
    await stale.atWrite;
    await write(ingest);
    await write(update);
    stale.release();
    expect(versionCommitted(await staleBatch)).to.equal(1);
    expect(await stored()).to.deep.equal({ content: 'Porto', version: 2, history: [[1, 'job_1_u'], [2, 'upd_job_5_u']] });
  });
}

describe('dual-writer: a stale writer loses to the newer version', function () {
  this.timeout(60_000);
  let dir: string;
  let embedded: { vectors: VectorStore; visualVectors: VectorStore; graph: GraphStore };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'stale-writer-'));
    embedded = {
      vectors: createEmbeddedVectorStore({ dir: join(dir, 'vectors') }),
      visualVectors: createEmbeddedVectorStore({ dir: join(dir, 'visual') }),
      graph: createEmbeddedGraphStore({ dir: join(dir, 'graph') }),
    };
  });
  afterEach(async () => {
    await Promise.all([embedded.vectors.close(), embedded.visualVectors.close(), embedded.graph.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  describe('on the embedded stores', () => describeStaleWriter(() => embedded));

  describeWithEngine('on Elasticsearch', localEngines().elasticsearch, function () {
    const options: ElasticsearchStoresOptions = { node: elasticsearchStoresOptionsFromEnv().node, prefix: uniqueName('stale-writer'), dims: 3, refreshInterval: '100ms' };
    let vectors: VectorStore;
    let close: () => Promise<void>;
    beforeEach(async () => {
      const opened = await openElasticsearchStores(options);
      vectors = opened.vectors;
      close = () => opened.close();
      // Each test its own memory: the one before it left it in the shared index.
      await vectors.delete(scope, [memoryId]);
    });
    afterEach(async () => close?.());
    after(async function () {
      if (skippedForEngine(this)) return;
      await dropElasticsearchStores(options);
    });
    describeStaleWriter(() => ({ ...embedded, vectors }));
  });
});
