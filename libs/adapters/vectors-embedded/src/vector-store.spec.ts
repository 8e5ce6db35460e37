import { expect } from 'chai';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LEXICAL_ANALYSIS_VERSION, lexicalTerms } from '@memory/lexical';
import type { VectorStore } from '@memory/ports';
import {
  describeCentroidStoreContract,
  describeVectorStoreContract,
  expectCode,
  freshScope,
  memoryRecord,
  runScript,
  tempDirStoreFactory,
  unitVector,
} from '@memory/testing';
import { createEmbeddedCentroidStore, createEmbeddedVectorStore, finishVectorStoreCompaction, openEmbeddedVectorStores } from './index.js';
import { scopedKey, VectorStorage } from './storage.js';

describeVectorStoreContract('vectors-embedded', tempDirStoreFactory('vectors-embedded', (dir) => createEmbeddedVectorStore({ dir })));
describeCentroidStoreContract('vectors-embedded', tempDirStoreFactory('centroids-embedded', (dir) => createEmbeddedCentroidStore({ dir })));
describeVectorStoreContract(
  'vectors-embedded, shared environment, 5 dimensions',
  tempDirStoreFactory('vectors-shared', async (dir) => {
    const both = openEmbeddedVectorStores({ dir });
    await both.centroids.close(); // the vector store must keep the shared environment open on its own
    return both.vectors;
  }),
  { dims: 5 },
);

/** Deterministic pseudo-random unit vectors (xorshift), so failures reproduce. */
function randomUnitVectors(count: number, dims: number, seed: number): Float32Array[] {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x100000000 - 0.5;
  };
  return Array.from({ length: count }, () => {
    const v = Float32Array.from({ length: dims }, next);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}

function bruteForce(vectors: Map<string, Float32Array>, query: Float32Array, k: number): string[] {
  const scored = [...vectors].map(([id, v]) => ({ id, score: v.reduce((s, x, i) => s + x * query[i]!, 0) }));
  scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  return scored.slice(0, k).map((s) => s.id);
}

describe('vectors-embedded', () => {
  let dir: string;
  let store: VectorStore;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vectors-embedded-'));
    store = createEmbeddedVectorStore({ dir });
  });

  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('matches a brute-force ranking on an index large enough for the SIMD kernel, filtered or not, through deletes and a reopen', async function () {
    this.timeout(60_000);
    const scope = freshScope();
    const dims = 384;
    const vectors = randomUnitVectors(3_000, dims, 7);
    const byId = new Map(vectors.map((v, i) => [`m${String(i).padStart(5, '0')}`, v]));
    const projectOf = (id: string) => `p${Number(id.slice(1)) % 7}`;
    await store.upsert([...byId].map(([id, vector]) => memoryRecord(scope, id, dims, { vector, metadata: { project: projectOf(id) } })));
    const queries = randomUnitVectors(5, dims, 99);
    const check = async () => {
      const inProject = new Map([...byId].filter(([id]) => projectOf(id) === 'p3'));
      for (const query of queries) {
        const hits = await store.knn(scope, { vector: query, k: 10 });
        expect(hits.map((h) => h.id)).to.deep.equal(bruteForce(byId, query, 10));
        const filtered = await store.knn(scope, { vector: query, k: 10, filter: { metadata: { project: ['p3'] } } });
        expect(filtered.map((h) => h.id), 'the 10 nearest of the filtered rows').to.deep.equal(bruteForce(inProject, query, 10));
      }
    };
    await check();
    const removed = [...byId.keys()].filter((_, i) => i % 3 === 0);
    expect(await store.delete(scope, removed)).to.equal(removed.length);
    removed.forEach((id) => byId.delete(id));
    await check();
    await store.close();
    store = createEmbeddedVectorStore({ dir });
    await check();
  });

  it('scores cosines for vectors that are not unit length', async () => {
    const scope = freshScope();
    await store.upsert([
      memoryRecord(scope, 'long', 3, { vector: Float32Array.from([10, 0, 0]) }),
      memoryRecord(scope, 'diagonal', 3, { vector: Float32Array.from([3, 3, 0]) }),
    ]);
    const hits = await store.knn(scope, { vector: Float32Array.from([0.5, 0, 0]), k: 2 });
    expect(hits.map((h) => h.id)).to.deep.equal(['long', 'diagonal']);
    expect(hits[0]!.score).to.be.closeTo(1, 1e-6);
    expect(hits[1]!.score).to.be.closeTo(Math.SQRT1_2, 1e-6);
    expect(Array.from((await store.get(scope, ['long']))[0]!.vector), 'stored as sent').to.deep.equal([10, 0, 0]);
  });

  it('rejects vectors whose dimensions differ from the end user\'s, on write and on query', async () => {
    const scope = freshScope();
    await store.upsert([memoryRecord(scope, 'a', 4)]);
    await expectCode(store.upsert([memoryRecord(scope, 'b', 6)]), 'VECTORS.DIMENSION_MISMATCH');
    await expectCode(store.upsert([memoryRecord(scope, 'c', 4), memoryRecord(scope, 'd', 5)]), 'VECTORS.DIMENSION_MISMATCH');
    expect(await store.ids(scope)).to.deep.equal(['a']);
    await expectCode(store.knn(scope, { vector: unitVector(6, { 0: 1 }), k: 1 }), 'VECTORS.DIMENSION_MISMATCH');
    await store.upsert([memoryRecord(freshScope(), 'other-user', 6)]);
  });

  it('rejects malformed records and queries with stable codes', async () => {
    const scope = freshScope();
    await expectCode(store.upsert([memoryRecord(scope, '', 4)]), 'VECTORS.INVALID_RECORD');
    await expectCode(store.upsert([memoryRecord(scope, 'nan', 4, { vector: Float32Array.from([NaN, 0, 0, 0]) })]), 'VECTORS.INVALID_RECORD');
    await expectCode(store.knn(scope, { vector: unitVector(4, { 0: 1 }), k: -1 }), 'VECTORS.INVALID_QUERY');
    await expectCode(store.get({ tenantId: '', endUserId: 'u' }, ['a']), 'VECTORS.INVALID_SCOPE');
  });

  it('keeps each memory\'s lexical analysis, and analyses and keeps those stored without one or with an old one', async () => {
    const scope = freshScope('lexical');
    const text = (content: string) => ({ content, originalContent: content });
    await store.upsert([
      memoryRecord(scope, 'kept', 4, text('Zeppelin museum in Friedrichshafen')),
      memoryRecord(scope, 'old', 4, text('Zeppelin ride over the lake')),
      memoryRecord(scope, 'stale', 4, text('Zeppelin model kit, ORD-7781')),
    ]);
    await store.close();
    // As a data folder written before analyses were kept, or under another analysis version, would hold them.
    let storage = VectorStorage.open(dir).acquire();
    expect(storage.lexical.get(scopedKey(scope, 'kept'))).to.deep.include({ version: LEXICAL_ANALYSIS_VERSION, identifiers: ['kept', 'job-kept'] });
    await storage.durable(() => {
      storage.lexical.remove(scopedKey(scope, 'old'));
      storage.lexical.put(scopedKey(scope, 'stale'), { version: LEXICAL_ANALYSIS_VERSION - 1, terms: ['wrongterm'], identifiers: [] });
    });
    await storage.release();

    store = createEmbeddedVectorStore({ dir });
    const zeppelin = await store.textSearch(scope, { terms: lexicalTerms('zeppelin'), k: 10 });
    expect(zeppelin.map((h) => h.id).sort()).to.deep.equal(['kept', 'old', 'stale']);
    expect(await store.textSearch(scope, { terms: ['wrongterm'], k: 10 })).to.deep.equal([]);
    expect(await store.findByIdentifiers(scope, ['ORD-7781'], 10)).to.deep.equal(['stale']);
    await store.close(); // waits for the analyses made while loading to be stored

    storage = VectorStorage.open(dir).acquire();
    for (const id of ['old', 'stale']) expect(storage.lexical.get(scopedKey(scope, id))?.version).to.equal(LEXICAL_ANALYSIS_VERSION);
    expect(storage.lexical.get(scopedKey(scope, 'stale'))?.terms).to.include('zeppelin');
    await storage.release();
    store = createEmbeddedVectorStore({ dir });
    await store.delete(scope, ['kept']);
    await store.close();
    storage = VectorStorage.open(dir).acquire();
    expect(storage.lexical.get(scopedKey(scope, 'kept'))).to.equal(undefined);
    await storage.release();
    store = createEmbeddedVectorStore({ dir });
  });

  it('reloads evicted indexes past maxCachedVectors and still answers exactly', async () => {
    await store.close();
    store = createEmbeddedVectorStore({ dir, maxCachedVectors: 3 });
    const users = [freshScope('a'), freshScope('b'), freshScope('c')];
    for (const [u, scope] of users.entries()) {
      await store.upsert([0, 1, 2].map((i) => memoryRecord(scope, `u${u}-m${i}`, 4, { vector: unitVector(4, { [i]: 1 }) })));
    }
    for (let round = 0; round < 2; round++) {
      for (const [u, scope] of users.entries()) {
        const hits = await store.knn(scope, { vector: unitVector(4, { 2: 1 }), k: 1 });
        expect(hits.map((h) => h.id)).to.deep.equal([`u${u}-m2`]);
      }
      await store.upsert([memoryRecord(users[0]!, 'u0-m3', 4, { vector: unitVector(4, { 2: 1, 3: 0.1 }) })]);
    }
  });

  it('shares one environment between the stores of openEmbeddedVectorStores, closing it with the last', async () => {
    await store.close();
    const both = openEmbeddedVectorStores({ dir });
    const scope = freshScope();
    await both.vectors.upsert([memoryRecord(scope, 'm', 4)]);
    await both.centroids.save(scope, { embeddingModel: 'x', sum: unitVector(4, { 0: 1 }), memoryCount: 1, similaritySum: 1 }, new Map([['m', { version: 1, similarity: 1 }]]));
    await both.vectors.close();
    expect(await both.centroids.members(scope, ['m'])).to.deep.equal(new Map([['m', { version: 1, similarity: 1 }]]));
    await both.close();
    await expectCode(both.vectors.count(scope), 'VECTORS.CLOSED');
    store = createEmbeddedVectorStore({ dir });
    expect(await store.count(scope)).to.equal(1);
  });

  it('validates options before opening anything', () => {
    expect(() => createEmbeddedVectorStore({ dir: '' })).to.throw(/dir must be a non-empty path/);
    expect(() => createEmbeddedVectorStore({ dir, maxCachedVectors: 0 })).to.throw(/maxCachedVectors/);
  });

  it('leaves no byte of a deleted memory\'s text when killed right after the deleting commit, once reopened as memoryd reopens it', async () => {
    const killed = join(dir, 'killed');
    const child = fileURLToPath(new URL('../test/delete-child.ts', import.meta.url));
    // 300 memories, the first 150 deleted: enough that their pages are freed, not rewritten in place.
    const exit = await runScript(child, [JSON.stringify({ dir: killed, word: 'zebracrossing', count: 300, deleted: 150 })]);
    expect(exit.signal, exit.output).to.equal('SIGKILL');
    const text = (i: number) => Buffer.from(`zebracrossing-${i} `);
    const crashed = await readFile(join(killed, 'data.mdb'));
    expect([0, 1, 2, 149].some((i) => crashed.includes(text(i))), 'deleted text in freed pages after the kill').to.equal(true);
    await finishVectorStoreCompaction(killed);
    const reopened = openEmbeddedVectorStores({ dir: killed });
    expect(await reopened.vectors.count({ tenantId: 'acme', endUserId: 'alice' })).to.equal(150);
    await reopened.close();
    const bytes = await readFile(join(killed, 'data.mdb'));
    for (let i = 0; i < 150; i++) expect(bytes.includes(text(i)), `deleted memory ${i}`).to.equal(false);
    for (let i = 150; i < 300; i++) expect(bytes.includes(text(i)), `kept memory ${i}`).to.equal(true);
  });
});
