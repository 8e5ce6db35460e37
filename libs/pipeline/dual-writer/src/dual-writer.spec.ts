import { expect } from 'chai';
import type { MemoryEnriched } from '@memory/contracts';
import { toGraph, toMemoryRecord, toVisualRecord } from './index.js';

const enriched: MemoryEnriched = {
  memoryId: 'mem_job_1_alice_0', jobId: 'job_1_alice', tenantId: 'acme', endUserId: 'alice', kind: 'text', partIndex: 0, partCount: 1,
  acceptedAt: 1000, createdAt: 900, content: 'Dinner with Jake in Paris on 2023-05-09', originalContent: 'Dinner with Jake in Paris tomorrow',
  userContext: null, eventTimes: [{ text: 'tomorrow', index: 26, start: 1, end: 2, iso: '2023-05-09', relative: true }],
  memoryType: 'plan', themes: ['food'], synonyms: ['supper'], keywords: ['dinner'],
  entities: [{ name: 'Jake', type: 'person', key: 'jake' }, { name: 'Paris', type: 'place', key: 'paris' }],
  sentiment: 'neutral', sentimentScore: 0, movieGenre: null, mentionedTitles: [], embeddingModel: 'm@1', vector: [0.6, 0.8],
  blob: null, image: null, document: null, metadata: { project: 'apollo', priority: 2 }, cause: null,
};

describe('dual-writer mapping', () => {
  it('stores the memory with its vector as float32 and both clocks', () => {
    const record = toMemoryRecord(enriched);
    expect(record.id).to.equal('mem_job_1_alice_0');
    expect(record.vector).to.be.instanceOf(Float32Array);
    expect(Array.from(record.vector)).to.deep.equal([Math.fround(0.6), Math.fround(0.8)]);
    expect(record.createdAt).to.equal(900);
    expect(record.acceptedAt).to.equal(1000);
    expect(record.eventTimes[0]!.iso).to.equal('2023-05-09');
    expect(record.metadata).to.deep.equal({ project: 'apollo', priority: 2 });
  });

  it('links user → memory → entities with ids derived from the scope', () => {
    const { nodes, edges } = toGraph(enriched);
    expect(nodes.map((n) => n.id)).to.deep.equal(['user:acme/alice', 'memory:mem_job_1_alice_0', 'entity:acme/alice/jake', 'entity:acme/alice/paris']);
    expect(edges.map((e) => `${e.from} ${e.kind} ${e.to}`)).to.deep.equal([
      'user:acme/alice owns memory:mem_job_1_alice_0',
      'memory:mem_job_1_alice_0 mentions entity:acme/alice/jake',
      'memory:mem_job_1_alice_0 mentions entity:acme/alice/paris',
    ]);
    expect(nodes.every((n) => n.tenantId === 'acme' && n.endUserId === 'alice')).to.equal(true);
  });

  it('gives the same graph for the same event (replays rewrite, never add)', () => {
    expect(toGraph(enriched)).to.deep.equal(toGraph(enriched));
  });

  it('keeps an image memory twice: by meaning in the vector store, by look in the visual store', () => {
    expect(toVisualRecord(enriched)).to.equal(null);
    const image = {
      ...enriched,
      kind: 'image' as const,
      image: { width: 2, height: 1, format: 'png', dominantColours: [{ hex: '#ff0000', share: 1, name: 'red' }], perceptualHash: '0f0f0f0f0f0f0f0f', capturedAt: null, ocrText: 'SALE', previewKey: 'acme/alice/j/preview.webp', descriptorVersion: 'visual-v1', visualVector: [1, 0] },
    };
    const record = toMemoryRecord(image);
    expect(record.image).to.deep.include({ ocrText: 'SALE', perceptualHash: '0f0f0f0f0f0f0f0f' });
    expect(record.image).to.not.have.property('visualVector');
    expect(Array.from(record.vector)).to.deep.equal([0.6000000238418579, 0.800000011920929]);
    const visual = toVisualRecord(image)!;
    expect(visual.id).to.equal(record.id);
    expect(Array.from(visual.vector)).to.deep.equal([1, 0]);
    expect(visual.embeddingModel).to.equal('visual-v1');
    expect(visual.metadata).to.deep.equal({ project: 'apollo', priority: 2 });
  });

  it('hangs a PDF page off its document node and links it to the next page', () => {
    const page = {
      ...enriched,
      memoryId: 'mem_doc_job_1_alice_1', jobId: 'doc_job_1_alice', kind: 'document' as const, partIndex: 1, partCount: 3, entities: [],
      document: { documentId: 'doc_job_1_alice', fileName: 'manual.pdf', pageNumber: 2, pageCount: 3, chunkIndex: 0, chunkCount: 1, textSource: 'text_layer' as const },
    };
    const { nodes, edges } = toGraph(page);
    expect(nodes.find((n) => n.kind === 'document')).to.include({ id: 'document:doc_job_1_alice', label: 'manual.pdf' });
    expect(edges.map((e) => `${e.from} ${e.kind} ${e.to}`)).to.include.members([
      'user:acme/alice owns document:doc_job_1_alice',
      'document:doc_job_1_alice contains memory:mem_doc_job_1_alice_1',
      'memory:mem_doc_job_1_alice_1 next memory:mem_doc_job_1_alice_2',
    ]);
    const last = toGraph({ ...page, memoryId: 'mem_doc_job_1_alice_2', partIndex: 2 });
    expect(last.edges.filter((e) => e.kind === 'next')).to.have.length(0);
  });
});
