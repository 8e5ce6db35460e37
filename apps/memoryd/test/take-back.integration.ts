import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryIdOf, newDataKey, type MemoryEnriched } from '@memory/contracts';
import { pageOfForgottenDocument } from '@memory/pipeline-runtime';
import { graphIds, Keyring, type DataKeyStore, type GraphStore, type VectorStore } from '@memory/ports';
import { dualWriterStage } from '@memory/stage-dual-writer';
import { openEmbeddedKeyStore } from '@memory/keys-embedded';
import { createEmbeddedGraphStore } from '@memory/graph-embedded';
import { createEmbeddedVectorStore } from '@memory/vectors-embedded';

/**
 * The window a delete's key destruction cannot close by itself: the dual-writer decoded a memory before its key was
 * destroyed and writes it after the forgetter has removed what was there. It must take it back.
 */
describe('the dual-writer takes back a memory forgotten while it held it', function () {
  this.timeout(30_000);
  let dir: string;
  let keyStore: DataKeyStore;
  let vectors: VectorStore;
  let visualVectors: VectorStore;
  let graph: GraphStore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'take-back-'));
    keyStore = await openEmbeddedKeyStore({ dir: join(dir, 'keys') });
    vectors = createEmbeddedVectorStore({ dir: join(dir, 'vectors') });
    visualVectors = createEmbeddedVectorStore({ dir: join(dir, 'visual') });
    graph = createEmbeddedGraphStore({ dir: join(dir, 'graph') });
  });
  afterEach(async () => {
    await Promise.all([keyStore.close(), vectors.close(), visualVectors.close(), graph.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  const memory = (n: number, entity: string): MemoryEnriched => ({
    memoryId: `mem_job_${1_700_000_000_000 + n}_alice_0`, jobId: `job_${1_700_000_000_000 + n}_alice`, tenantId: 'acme', endUserId: 'alice', kind: 'text',
    partIndex: 0, partCount: 1, acceptedAt: 1_700_000_000_000 + n, createdAt: 1_700_000_000_000 + n, content: `I met ${entity}`, originalContent: `I met ${entity}`,
    userContext: null, eventTimes: [], memoryType: 'event', themes: [], synonyms: [], keywords: [], entities: [{ name: entity, type: 'person', key: entity.toLowerCase() }],
    sentiment: 'neutral', sentimentScore: 0, movieGenre: null, mentionedTitles: [], embeddingModel: 'm@1', vector: [0.6, 0.8], blob: null, image: null, document: null, metadata: null, cause: 'ingest',
  });
  const incoming = (value: MemoryEnriched, offset: number) => ({ event: 'enriched' as const, value, topic: 'memory.enriched', partition: 0, offset, key: 'acme/alice', timestamp: 1 });

  it('removes the forgotten memory with its orphaned entity, keeps the other, and publishes nothing for it', async () => {
    const keys = new Keyring(keyStore);
    const scope = { tenantId: 'acme', endUserId: 'alice' };
    const [gone, kept] = [memory(1, 'Zora'), memory(2, 'Milo')];
    await keyStore.create([gone, kept].map((memory) => ({ scope, keyId: memory.jobId, key: newDataKey() })));
    // Decoded (in hand), then forgotten before the write.
    await keys.forget(scope, [gone.jobId]);
    const outputs = await dualWriterStage.process([incoming(gone, 0), incoming(kept, 1)], { vectors, visualVectors, graph, keys });

    expect(outputs[0]).to.deep.equal([]);
    expect(outputs[1]!.map((emit) => emit.event)).to.deep.equal(['committed', 'jobStatus']);
    expect((await vectors.get(scope, [gone.memoryId, kept.memoryId])).map((m) => m.id)).to.deep.equal([kept.memoryId]);
    expect(await graph.getNodes(scope, [graphIds.memory(gone.memoryId), graphIds.entity(scope, 'zora')])).to.deep.equal([]);
    expect(await graph.getNodes(scope, [graphIds.entity(scope, 'milo')])).to.have.length(1);
  });

  it('counts a PDF page forgotten while it held it done, so its job can still complete', async () => {
    const keys = new Keyring(keyStore);
    const scope = { tenantId: 'acme', endUserId: 'alice' };
    const jobId = 'doc_job_1700000000003_alice';
    const page = (partIndex: number): MemoryEnriched => ({ ...memory(3, 'Zora'), jobId, memoryId: memoryIdOf(jobId, partIndex), partIndex, partCount: 2, kind: 'document' });
    // Each page is sealed with a key of its own (its memory id): a DELETE of one page destroys that key only.
    await keyStore.create([0, 1].map((i) => ({ scope, keyId: memoryIdOf(jobId, i), key: newDataKey() })));
    await keys.forget(scope, [memoryIdOf(jobId, 1)]);
    const outputs = await dualWriterStage.process([incoming(page(0), 0), incoming(page(1), 1)], { vectors, visualVectors, graph, keys });

    expect(outputs[0]!.map((emit) => emit.event)).to.deep.equal(['committed', 'jobStatus']);
    expect(outputs[1]).to.deep.equal([pageOfForgottenDocument({ jobId, ...scope }, { memoryId: memoryIdOf(jobId, 1), partIndex: 1 }, 'dual-writer')]);
    expect((await vectors.get(scope, [memoryIdOf(jobId, 0), memoryIdOf(jobId, 1)])).map((m) => m.id)).to.deep.equal([memoryIdOf(jobId, 0)]);
  });
});
