import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedGraphStore } from '@memory/graph-embedded';
import { graphIds, type Embedder, type GraphEdge, type GraphNode, type GraphStore, type MemoryRecord, type Scope } from '@memory/ports';
import { freshScope, memoryRecord, unitVector } from '@memory/testing';
import { openEmbeddedVectorStores, type EmbeddedVectorStores } from '@memory/vectors-embedded';
import { searchConfig, searchMemories, type StrategyName } from '@memory/search';

const DIMS = 8;
const DAY = 86_400_000;
const NOW = Date.UTC(2024, 5, 20, 12);

/** The strategies that must not embed get an embedder that fails the test if it is called. */
const noEmbedding: Embedder = {
  model: { name: 'none', version: '0', dimensions: DIMS },
  embed: async () => {
    throw new Error('the embedder was called');
  },
  close: async () => {},
};

/** For the semantic path: each query text maps to a chosen vector (the model is not what these tests are about). */
function fixedEmbedder(vectors: Record<string, Float32Array>): Embedder {
  return { ...noEmbedding, embed: async (texts) => texts.map((t) => vectors[t] ?? unitVector(DIMS, { 7: 1 })) };
}

describe('search strategies on the embedded stores', function () {
  this.timeout(20_000);
  let dir: string;
  let stores: EmbeddedVectorStores;
  let graph: GraphStore;
  let scope: Scope;

  const remember = async (id: string, overrides: Partial<MemoryRecord>) => {
    const memory = memoryRecord(scope, id, DIMS, { entities: [], eventTimes: [], ...overrides });
    await stores.vectors.upsert([memory]);
    const owner = { tenantId: scope.tenantId, endUserId: scope.endUserId };
    const nodes: GraphNode[] = [{ id: graphIds.memory(id), kind: 'memory', label: memory.content.slice(0, 30), ...owner }];
    const edges: GraphEdge[] = [];
    for (const entity of memory.entities) {
      nodes.push({ id: graphIds.entity(scope, entity.key), kind: 'entity', label: entity.name, entityType: entity.type, ...owner });
      edges.push({ from: graphIds.memory(id), to: graphIds.entity(scope, entity.key), kind: 'mentions', ...owner });
    }
    await graph.upsert(nodes, edges);
  };
  /** The config POST /v1/search would build from this body (no dynamic scoring unless asked: NOW is fixed). */
  const configOf = (body: { query: string; strategy?: StrategyName | null; limit?: number; explain?: boolean }) =>
    searchConfig({ query: body.query, strategy: body.strategy, useDynamicScoring: false, options: { limit: body.limit ?? 10, explain: body.explain ?? false } }, { scope, route: 'search' });
  const search = (query: string, strategy: StrategyName | null, embedder: Embedder = noEmbedding, limit = 10) =>
    searchMemories({ vectors: stores.vectors, centroids: stores.centroids, graph, embedder, now: () => NOW }, configOf({ query, strategy, limit }));

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'search-strategies-'));
    stores = openEmbeddedVectorStores({ dir: join(dir, 'vectors') });
    graph = createEmbeddedGraphStore({ dir: join(dir, 'graph') });
    scope = freshScope('alice');
  });

  afterEach(async () => {
    await stores.close();
    await graph.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('temporal_range returns only memories in the range, nearest its middle first, without embedding', async () => {
    const may = (day: number) => ({ start: Date.UTC(2024, 4, day), end: Date.UTC(2024, 4, day + 1) });
    await remember('early-may', { content: 'dentist appointment', createdAt: Date.UTC(2024, 4, 1), eventTimes: [{ text: 'tomorrow', index: 0, iso: '2024-05-02', relative: true, ...may(2) }] });
    await remember('mid-may', { content: 'concert with Jo', createdAt: Date.UTC(2024, 4, 16), eventTimes: [{ text: 'Friday', index: 0, iso: '2024-05-17', relative: true, ...may(17) }] });
    await remember('created-in-may', { content: 'started a new book', createdAt: Date.UTC(2024, 4, 20) });
    await remember('april', { content: 'tax return filed', createdAt: Date.UTC(2024, 4, 10), eventTimes: [{ text: 'last month', index: 0, iso: '2024-04', relative: true, start: Date.UTC(2024, 3, 1), end: Date.UTC(2024, 4, 1) }] });
    await remember('june', { content: 'beach trip', createdAt: Date.UTC(2024, 5, 2) });

    const { data, routing } = await search('what did I do in May 2024?', 'temporal_range');
    expect(data.map((h) => h.id)).to.deep.equal(['mid-may', 'created-in-may', 'early-may']);
    expect(routing).to.deep.include({ strategies: ['temporal_range'] });
    for (const hit of data) expect(hit.finalScore).to.be.within(0, 1);
  });

  it('temporal_range takes a month named without a year as the latest one the user has memories of', async () => {
    // Asked on 20 June 2024: "June" is June 2024 by the calendar, but this user's camping trips are in 2022 and 2021.
    await remember('camping-2022', { content: 'camping at the lake', createdAt: Date.UTC(2022, 5, 12) });
    await remember('camping-2021', { content: 'camping in the hills', createdAt: Date.UTC(2021, 5, 5) });
    await remember('autumn-2022', { content: 'apple picking', createdAt: Date.UTC(2022, 9, 1) });

    const { data, routing } = await search('when did I go camping in June?', 'temporal_range');
    expect(data.map((h) => h.id)).to.deep.equal(['camping-2022']);
    expect(routing['timeRange']).to.deep.include({ from: '2022-06-01T00:00:00.000Z', to: '2022-07-01T00:00:00.000Z', text: 'June' });
    // A written year is taken as written, memories or not.
    expect((await search('what did I do in June 2023?', 'temporal_range')).data).to.deep.equal([]);
  });

  it('temporal_range resolves a time relative to an event of the user ("two days before the wedding")', async () => {
    const day = (d: number) => ({ start: Date.UTC(2024, 5, d), end: Date.UTC(2024, 5, d + 1) });
    await remember('wedding', { content: 'Our wedding is on June 14 at the lake house', createdAt: Date.UTC(2024, 1, 1), eventTimes: [{ text: 'June 14', index: 18, iso: '2024-06-14', relative: false, ...day(14) }] });
    await remember('rings', { content: 'Picked up the rings from the jeweller', createdAt: Date.UTC(2024, 5, 12, 16) });
    await remember('hike', { content: 'Long hike in the hills', createdAt: Date.UTC(2024, 5, 1, 9) });
    const { data, routing } = await search('what did I do two days before the wedding?', 'temporal_range');
    expect(data.map((h) => h.id)).to.deep.equal(['rings']);
    expect(routing['relativeToEvent']).to.deep.include({ amount: 2, unit: 'day', direction: -1, event: 'wedding', anchorMemory: 'wedding' });
  });

  it('entity_anchor returns the memories of an entity and its graph neighbours, even with no word in common', async () => {
    const okafor = { name: 'Okafor', type: 'person' as const, key: 'okafor' };
    const clinic = { name: 'Riverside Clinic', type: 'organization' as const, key: 'riverside clinic' };
    await remember('direct', { content: 'Okafor recommended physiotherapy', entities: [okafor, clinic] });
    await remember('neighbour', { content: 'the building by the harbour has a new roof', entities: [clinic] });
    await remember('unrelated', { content: 'bought oat milk', entities: [{ name: 'Tesco', type: 'organization', key: 'tesco' }] });

    const { data, routing } = await search('What did Okafor tell me?', 'entity_anchor');
    expect(data.map((h) => h.id)).to.deep.equal(['direct', 'neighbour']);
    expect(data[0]!.searchedWithNode).to.equal(graphIds.entity(scope, 'okafor'));
    expect(data[1]!.searchedWithNode).to.equal(graphIds.entity(scope, 'riverside clinic'));
    expect(data[0]!.finalScore).to.be.greaterThan(data[1]!.finalScore);
    expect((routing['entities'] as Array<{ name: string }>).map((e) => e.name)).to.deep.equal(['Okafor']);
  });

  it('entity_anchor lists only a specific anchor in automatic routing; a common one adds weight without being read', async () => {
    const partner = { name: 'Sam', type: 'person' as const, key: 'sam' };
    const kyoto = { name: 'Kyoto', type: 'place' as const, key: 'kyoto' };
    for (let i = 0; i < 60; i++) await remember(`sam-${i}`, { content: `dinner with Sam number ${i}`, entities: [partner] });
    await remember('both', { content: 'Sam and I walked through Kyoto', entities: [partner, kyoto] });
    await remember('kyoto-only', { content: 'temples in Kyoto at dawn', entities: [kyoto] });
    const listed: string[] = [];
    const observed: GraphStore = { ...graph, degrees: graph.degrees.bind(graph), findEntities: graph.findEntities.bind(graph), neighbours: (s, from, options) => (listed.push(from), graph.neighbours(s, from, options)) };
    const { data, routing } = await searchMemories(
      { vectors: stores.vectors, centroids: stores.centroids, graph: observed, embedder: fixedEmbedder({}), now: () => NOW },
      configOf({ query: 'Sam in Kyoto', limit: 70, explain: true }),
    );
    const entityScore = (id: string) => ((data.find((h) => h.id === id)?.explain?.['strategies'] as Record<string, { score: number }> | undefined)?.['entity_anchor']?.score ?? 0);
    expect(entityScore('both')).to.be.greaterThan(entityScore('kyoto-only'));
    expect(entityScore('kyoto-only')).to.be.greaterThan(0);
    expect(entityScore('sam-7'), 'a memory of the common anchor alone is not in the entity list').to.equal(0);
    expect(listed, 'the common anchor\'s 61 memories are never listed').to.not.include(graphIds.entity(scope, 'sam'));
    expect((routing['entities'] as Array<{ name: string; memories: number }>).map((e) => [e.name, e.memories]).sort()).to.deep.equal([['Kyoto', 2], ['Sam', 61]]);
  });

  it('a search whose embedding fails rejects with that failure, and leaves no unhandled rejection behind', async () => {
    await remember('some', { content: 'walked the dog by the river' });
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      // The lexical search fails after the embedding has: nobody awaits it any more.
      const vectors = new Proxy(stores.vectors, {
        get: (target, name, receiver) =>
          name === 'textSearch' ? async () => { await new Promise((r) => setTimeout(r, 20)); throw new Error('lexical store down'); } : Reflect.get(target, name, receiver),
      });
      const failing: Embedder = { ...noEmbedding, embed: async () => { throw new Error('model thread gone'); } };
      const search = searchMemories({ vectors, graph, embedder: failing, now: () => NOW }, configOf({ query: 'dog by the river', limit: 5 }));
      await search.then(() => expect.fail('the search should fail'), (error: Error) => expect(error.message).to.equal('model thread gone'));
      await new Promise((r) => setTimeout(r, 60));
      expect(unhandled).to.deep.equal([]);
    } finally {
      process.off('unhandledRejection', record);
    }
  });

  it('entity_anchor takes the number of memories from the user\'s centroid, and counts them in the store only when there is none', async () => {
    await remember('direct', { content: 'Okafor recommended physiotherapy', entities: [{ name: 'Okafor', type: 'person', key: 'okafor' }] });
    const counted: Scope[] = [];
    const vectors = new Proxy(stores.vectors, {
      get: (target, name, receiver) => (name === 'count' ? (asked: Scope) => (counted.push(asked), target.count(asked)) : Reflect.get(target, name, receiver)),
    });
    const entityScore = async () => {
      const { data } = await searchMemories({ vectors, centroids: stores.centroids, graph, embedder: noEmbedding, now: () => NOW }, configOf({ query: 'What did Okafor tell me?', strategy: 'entity_anchor', explain: true }));
      return (data[0]?.explain?.['strategies'] as Record<string, { score: number }>)['entity_anchor']!.score;
    };
    // idf = ln(1 + N / df), the anchor in one memory.
    expect(await entityScore()).to.be.closeTo(Math.log(1 + 1), 1e-9);
    expect(counted).to.have.length(1);
    await stores.centroids.save(scope, { embeddingModel: 'fixed', sum: unitVector(DIMS, { 0: 1 }), memoryCount: 400, similaritySum: 400 }, new Map());
    expect(await entityScore()).to.be.closeTo(Math.log(1 + 400), 1e-9);
    expect(counted, 'no count once the centroid has one').to.have.length(1);
  });

  it('entity_anchor finds a person stored with a title from the bare name', async () => {
    await remember('titled', { content: 'Dr. Mensah moved my appointment', entities: [{ name: 'Dr Mensah', type: 'person', key: 'dr mensah' }] });
    const { data } = await search('When is my appointment with Mensah?', 'entity_anchor');
    expect(data.map((h) => h.id)).to.deep.equal(['titled']);
    expect(data[0]!.searchedWithNode).to.equal(graphIds.entity(scope, 'dr mensah'));
  });

  it('direct_lookup finds a code, a memory id and a job id without calling the embedder', async () => {
    await remember('order', { content: 'my order ORD-2024-1187 shipped' });
    await remember('other', { content: 'order ORD-2024-1188 was cancelled' });
    expect((await search('ORD-2024-1187', 'direct_lookup')).data.map((h) => h.id)).to.deep.equal(['order']);
    expect((await search('where is ord-2024-1187?', null)).data[0]!.id, 'automatic routing, identifier first').to.equal('order');
    expect((await search('other', 'direct_lookup')).data).to.deep.equal([]);
    expect((await search('job-other', 'direct_lookup')).data.map((h) => h.id)).to.deep.equal([]); // not an identifier: no digits
    expect((await search('tell me about ORD-2024-1188', 'direct_lookup')).data.map((h) => h.id)).to.deep.equal(['other']);
    await remember('mem_job_1718000000000_alice_0', { jobId: 'job_1718000000000_alice', content: 'a note without codes' });
    expect((await search('mem_job_1718000000000_alice_0', 'direct_lookup')).data.map((h) => h.id)).to.deep.equal(['mem_job_1718000000000_alice_0']);
    const byJob = await search('job_1718000000000_alice', 'direct_lookup');
    expect(byJob.data.map((h) => h.id)).to.deep.equal(['mem_job_1718000000000_alice_0']);
    expect(byJob.data[0]!.searchedWithNode).to.equal(graphIds.memory('mem_job_1718000000000_alice_0'));
  });

  it('a query naming a speaker ranks their own lines above the replies addressed to them', async () => {
    const query = 'What did Melanie paint?';
    const line = (text: string) => ({ content: text, originalContent: text });
    await remember('reply', { ...line('Caroline: Wow Melanie, what a painting!'), vector: unitVector(DIMS, { 0: 1, 1: 0.3 }) });
    await remember('own-line', { ...line('Melanie: I painted a horse on the barn wall.'), vector: unitVector(DIMS, { 0: 1, 1: 0.5 }) });
    await remember('other', { ...line('Caroline: The weather is lovely today.'), vector: unitVector(DIMS, { 5: 1 }) });
    const embedder = fixedEmbedder({ [query]: unitVector(DIMS, { 0: 1 }) });
    const { data } = await searchMemories(
      { vectors: stores.vectors, centroids: stores.centroids, graph, embedder, now: () => NOW },
      configOf({ query, limit: 3, strategy: 'centroid_aware', explain: true }),
    );
    expect(data.map((h) => h.id).slice(0, 2)).to.deep.equal(['own-line', 'reply']);
    expect(data[1]!.explain!['rerankers']).to.have.nested.property('speaker.factor').closeTo(1 / 1.4, 1e-9);
    expect(data[1]!.explain!['strategies']).to.have.nested.property('dense.rank', 1, 'the reply is nearer the query: only the speaker moves it');
  });

  it('episode context lifts the answer recorded right after a matching question, which shares nothing with the query', async () => {
    const t = Date.UTC(2024, 5, 1, 18);
    await remember('question', { content: 'What did you research lately?', vector: unitVector(DIMS, { 0: 1 }), createdAt: t });
    await remember('answer', { content: 'Adoption agencies, it is a dream of mine', vector: unitVector(DIMS, { 4: 1 }), createdAt: t + 60_000 });
    await remember('unrelated', { content: 'Groceries for the week', vector: unitVector(DIMS, { 4: 1 }), createdAt: t + 3_600_000 });
    const embedder = fixedEmbedder({ 'what was I studying': unitVector(DIMS, { 0: 1 }) });
    const { data } = await searchMemories(
      { vectors: stores.vectors, centroids: stores.centroids, graph, embedder, now: () => NOW },
      configOf({ query: 'what was I studying', limit: 3, strategy: 'centroid_aware', explain: true }),
    );
    expect(data.map((h) => h.id).slice(0, 2)).to.deep.include.members(['question', 'answer']);
    const answer = data.find((h) => h.id === 'answer')!;
    expect((answer.explain!['episode'] as { neighbour: string }).neighbour).to.equal('question');
    const unrelated = data.findIndex((h) => h.id === 'unrelated');
    expect(unrelated === -1 || unrelated > data.findIndex((h) => h.id === 'answer'), 'the memory recorded an hour later is not lifted').to.equal(true);
  });

  /** Twelve memories on six topics (axes 0-5) with a shared part (axis 6), recorded a day apart, and their centroid. */
  const rememberSixTopics = async () => {
    for (let i = 0; i < 12; i++) {
      const vector = unitVector(DIMS, { [i % 6]: 1, 6: 0.5 });
      await remember(`m${i}`, { content: `memory ${i}`, vector, createdAt: NOW - i * DAY });
      const current = await stores.centroids.get(scope);
      const sum = current ? current.sum.map((x, j) => x + vector[j]!) : Float32Array.from(vector);
      const norm = Math.hypot(...sum);
      const similarity = sum.reduce((acc, x, j) => acc + (x / norm) * vector[j]!, 0);
      await stores.centroids.save(scope, { embeddingModel: 'test-model@1', sum, memoryCount: (current?.memoryCount ?? 0) + 1, similaritySum: (current?.similaritySum ?? 0) + similarity }, new Map([[`m${i}`, { version: 1, similarity }]]));
    }
  };

  it('centroid_aware picks META for a query nearer the user centroid than any memory, SPECIFIC when one memory is nearer', async () => {
    await rememberSixTopics();
    // broad: the centroid's own direction (cosine 1), 0.58 to every memory; narrow: 0.63 to the memories of topics 2
    // and 3, 0.37 to the centroid.
    const embedder = fixedEmbedder({ broad: unitVector(DIMS, { 0: 1, 1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 3 }), narrow: unitVector(DIMS, { 2: 1, 3: 1 }) });
    const broad = await search('broad', 'centroid_aware', embedder, 5);
    const narrow = await search('narrow', 'centroid_aware', embedder, 5);
    expect(broad.routing.centroidMode).to.equal('META');
    expect(narrow.routing.centroidMode).to.equal('SPECIFIC');
    expect(broad.data).to.have.length(5);
    expect(Number(narrow.data[0]!.id.slice(1)) % 6, 'nearest first: a memory of topic 2 or 3').to.be.oneOf([2, 3]);
  });

  it('a query whose time range leaves out its nearest memory is still SPECIFIC: the nearest of all memories decides', async () => {
    await rememberSixTopics();
    // Near topic 0 (0.92), less near the centroid (0.76); 17 June holds only m3, of topic 3 (0.34).
    const query = 'what happened on June 17, 2024';
    const embedder = fixedEmbedder({ [query]: unitVector(DIMS, { 0: 1, 6: 1.2 }) });
    const { routing } = await search(query, null, embedder, 5);
    expect(routing.strategies).to.include('temporal_range');
    expect(routing.centroidMode).to.equal('SPECIFIC');
    expect((routing['centroid'] as { threshold: number }).threshold, "the topic 0 memories' cosine, outside the range").to.be.closeTo(0.916, 0.001);
  });
});
