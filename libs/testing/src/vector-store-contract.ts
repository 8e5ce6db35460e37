import { expect } from 'chai';
import type { MemoryRecord, Scope, VectorStore } from '@memory/ports';
import { freshScope, memoryRecord, plainRecord, unitVector } from './memory-fixtures.js';
import { describeLexicalIdentifiersAndTime } from './vector-store-contract-lexical.js';
import { describeListing } from './vector-store-contract-list.js';
import { describeFilters } from './vector-store-contract-filter.js';
import { describeHistory } from './vector-store-contract-history.js';
import { describeConditionalWrites } from './vector-store-contract-conditional.js';
import type { StoreFactory, StoreHarness } from './store-harness.js';

export interface VectorStoreContractOptions {
  /** Vector dimensions the suite writes (an engine whose index has fixed dimensions is created with these). */
  dims?: number;
}

const DAY = 86_400_000;

/**
 * The behaviour every VectorStore adapter must show, embedded or Elasticsearch. Each test works in scopes of its
 * own (unique tenant ids), so the suite can run against a shared engine; nothing here looks inside an adapter.
 */
export function describeVectorStoreContract(adapterName: string, factory: StoreFactory<VectorStore>, options: VectorStoreContractOptions = {}): void {
  const dims = options.dims ?? 8;
  const memory = (scope: Scope, id: string, overrides: Partial<MemoryRecord> = {}) => memoryRecord(scope, id, dims, overrides);
  const axis = (i: number) => unitVector(dims, { [i]: 1 });

  describe(`VectorStore contract: ${adapterName}`, function () {
    this.timeout(30_000);
    let harness: StoreHarness<VectorStore>;
    let store: VectorStore;
    let scope: Scope;

    beforeEach(async () => {
      harness = await factory();
      store = harness.store;
      scope = freshScope();
    });

    afterEach(async () => {
      await harness.cleanup();
    });

    describe('upsert and get', () => {
      it('returns what was written, every field and the vector', async () => {
        const written = memory(scope, 'm1', {
          userContext: 'on holiday',
          metadata: { project: 'apollo', priority: 2.5, pinned: true },
          eventTimes: [{ text: 'next Friday', index: 3, start: Date.UTC(2024, 0, 12), end: Date.UTC(2024, 0, 13), iso: '2024-01-12', relative: true }],
          vector: unitVector(dims, { 0: 0.6, 1: 0.8 }),
        });
        await store.upsert([written]);
        const [read] = await store.get(scope, ['m1']);
        expect(read, 'the stored memory').to.not.equal(undefined);
        expect(read!.vector).to.be.instanceOf(Float32Array);
        expect(plainRecord(read!)).to.deep.equal(plainRecord(written));
      });

      it('reads the same memories without their vectors: in the order asked, unknown ids and other owners skipped', async () => {
        const written = memory(scope, 'm1', { metadata: { project: 'apollo' }, vector: unitVector(dims, { 0: 0.6, 1: 0.8 }) });
        await store.upsert([written, memory(scope, 'm2')]);
        await store.upsert([memory({ ...scope, endUserId: 'someone-else' }, 'm3')]);
        const read = await store.getWithoutVectors(scope, ['m2', 'missing', 'm1', 'm3']);
        expect(read.map((r) => r.id)).to.deep.equal(['m2', 'm1']);
        expect(read[1], 'no vector').to.not.have.property('vector');
        const { vector: _vector, ...withoutVector } = plainRecord(written);
        expect({ ...read[1] }).to.deep.equal(withoutVector);
        expect(await store.getWithoutVectors(freshScope(), ['m1'])).to.deep.equal([]);
      });

      it('reads the vectors alone, exactly as written: unknown ids and other owners left out', async () => {
        const first = unitVector(dims, { 0: 0.6, 1: 0.8 });
        const second = unitVector(dims, { 0: -0.28, 2: 0.96 });
        await store.upsert([memory(scope, 'm1', { vector: first }), memory(scope, 'm2', { vector: second })]);
        await store.upsert([memory({ ...scope, endUserId: 'someone-else' }, 'm3')]);
        const vectors = await store.vectors(scope, ['m2', 'missing', 'm1', 'm3']);
        expect([...vectors.keys()].sort()).to.deep.equal(['m1', 'm2']);
        expect(vectors.get('m1')).to.be.instanceOf(Float32Array);
        expect(Array.from(vectors.get('m1')!)).to.deep.equal(Array.from(first));
        expect(Array.from(vectors.get('m2')!)).to.deep.equal(Array.from(second));
        expect((await store.vectors(freshScope(), ['m1'])).size).to.equal(0);
        expect((await store.vectors(scope, [])).size).to.equal(0);
      });

      it('keeps one memory per id: writing the same id twice replaces it', async () => {
        await store.upsert([memory(scope, 'm1', { content: 'first' })]);
        await store.upsert([memory(scope, 'm1', { content: 'second' })]);
        expect(await store.count(scope)).to.equal(1);
        expect(await store.ids(scope)).to.deep.equal(['m1']);
        const [read] = await store.get(scope, ['m1']);
        expect(read!.content).to.equal('second');
        const hits = await store.knn(scope, { vector: axis(0), k: 10 });
        expect(hits.map((h) => h.id)).to.deep.equal(['m1']);
      });

      it('keeps the last of one id written twice in the same batch', async () => {
        await store.upsert([memory(scope, 'm1', { content: 'first' }), memory(scope, 'm1', { content: 'last' })]);
        expect(await store.count(scope)).to.equal(1);
        expect((await store.get(scope, ['m1']))[0]!.content).to.equal('last');
      });

      it('returns the requested memories in the order asked, skipping unknown ids', async () => {
        await store.upsert([memory(scope, 'a'), memory(scope, 'b'), memory(scope, 'c')]);
        const read = await store.get(scope, ['c', 'missing', 'a']);
        expect(read.map((r) => r.id)).to.deep.equal(['c', 'a']);
        expect(await store.get(scope, [])).to.deep.equal([]);
      });

      it('lists and counts the ids of an end user', async () => {
        await store.upsert(['a', 'b', 'c'].map((id) => memory(scope, id)));
        expect((await store.ids(scope)).sort()).to.deep.equal(['a', 'b', 'c']);
        expect(await store.count(scope)).to.equal(3);
        expect(await store.count(freshScope())).to.equal(0);
        expect(await store.ids(freshScope())).to.deep.equal([]);
      });

      it('keeps every memory of concurrent upserts', async () => {
        await Promise.all(Array.from({ length: 10 }, (_, i) => store.upsert([memory(scope, `m${i}`, { vector: axis(i % dims) })])));
        expect(await store.count(scope)).to.equal(10);
      });
    });

    describe('knn', () => {
      const seed = async () => {
        await store.upsert([
          memory(scope, 'same', { vector: axis(0) }),
          memory(scope, 'close', { vector: unitVector(dims, { 0: 1, 1: 1 }) }),
          memory(scope, 'orthogonal', { vector: axis(1) }),
          memory(scope, 'opposite', { vector: unitVector(dims, { 0: -1 }) }),
        ]);
      };

      it('ranks by cosine similarity, best first, with cosine scores', async () => {
        await seed();
        const hits = await store.knn(scope, { vector: axis(0), k: 10 });
        expect(hits.map((h) => h.id)).to.deep.equal(['same', 'close', 'orthogonal', 'opposite']);
        const expected = [1, Math.SQRT1_2, 0, -1];
        hits.forEach((hit, i) => expect(hit.score).to.be.closeTo(expected[i]!, 1e-4));
      });

      it('returns at most k', async () => {
        await seed();
        expect((await store.knn(scope, { vector: axis(0), k: 2 })).map((h) => h.id)).to.deep.equal(['same', 'close']);
        expect(await store.knn(scope, { vector: axis(0), k: 1 })).to.have.length(1);
      });

      it('finds nothing for an end user with no memories', async () => {
        expect(await store.knn(scope, { vector: axis(0), k: 5 })).to.deep.equal([]);
      });

      it('forgets deleted memories', async () => {
        await seed();
        expect(await store.delete(scope, ['same', 'missing'])).to.equal(1);
        expect(await store.delete(scope, ['same'])).to.equal(0);
        const hits = await store.knn(scope, { vector: axis(0), k: 10 });
        expect(hits.map((h) => h.id)).to.deep.equal(['close', 'orthogonal', 'opposite']);
        expect(await store.get(scope, ['same'])).to.deep.equal([]);
        expect(await store.count(scope)).to.equal(3);
      });

      it('follows a replaced vector', async () => {
        await seed();
        await store.upsert([memory(scope, 'opposite', { vector: axis(0) })]);
        const hits = await store.knn(scope, { vector: axis(0), k: 2 });
        expect(hits.map((h) => h.id).sort()).to.deep.equal(['opposite', 'same']);
        expect(await store.count(scope)).to.equal(4);
      });
    });

    describe('time range filter', () => {
      const t0 = Date.UTC(2024, 0, 10);
      const at = (start: number, end: number) => ({ text: 'then', index: 0, start, end, iso: new Date(start).toISOString(), relative: false });

      it('matches event times overlapping [from, to), else the creation time inside it', async () => {
        await store.upsert([
          memory(scope, 'overlaps', { eventTimes: [at(t0 + 1 * DAY, t0 + 2 * DAY)], createdAt: t0 - 30 * DAY }),
          memory(scope, 'starts-at-to', { eventTimes: [at(t0 + 3 * DAY, t0 + 4 * DAY)] }),
          memory(scope, 'ends-at-from', { eventTimes: [at(t0, t0 + 1.5 * DAY)] }),
          memory(scope, 'second-interval', { eventTimes: [at(t0 - 9 * DAY, t0 - 8 * DAY), at(t0 + 2.5 * DAY, t0 + 2.6 * DAY)] }),
          memory(scope, 'created-inside', { createdAt: t0 + 2 * DAY }),
          memory(scope, 'created-at-from', { createdAt: t0 + 1.5 * DAY }),
          memory(scope, 'created-at-to', { createdAt: t0 + 3 * DAY }),
          memory(scope, 'event-outside-created-inside', { eventTimes: [at(t0 + 10 * DAY, t0 + 11 * DAY)], createdAt: t0 + 2 * DAY }),
        ]);
        const hits = await store.knn(scope, { vector: axis(0), k: 20, timeRange: { from: t0 + 1.5 * DAY, to: t0 + 3 * DAY } });
        expect(hits.map((h) => h.id).sort()).to.deep.equal(['created-at-from', 'created-inside', 'overlaps', 'second-interval']);
      });

      it('applies the filter before k', async () => {
        const inside = memory(scope, 'inside', { vector: axis(1), createdAt: t0 });
        const outside = Array.from({ length: 5 }, (_, i) => memory(scope, `outside-${i}`, { vector: axis(0), createdAt: t0 - 100 * DAY }));
        await store.upsert([inside, ...outside]);
        const hits = await store.knn(scope, { vector: axis(0), k: 1, timeRange: { from: t0 - DAY, to: t0 + DAY } });
        expect(hits.map((h) => h.id)).to.deep.equal(['inside']);
      });
    });

    describe('isolation', () => {
      it('keeps tenants and end users apart, even with the same memory ids', async () => {
        const tenant = scope.tenantId;
        const otherUser: Scope = { tenantId: tenant, endUserId: 'other-user' };
        const otherTenant: Scope = { ...freshScope(), endUserId: scope.endUserId };
        await store.upsert([memory(scope, 'shared', { vector: axis(0), content: 'mine' }), memory(scope, 'only-mine', { vector: axis(0) })]);
        await store.upsert([memory(otherUser, 'shared', { vector: axis(1), content: 'other user' }), memory(otherUser, 'only-other-user')]);
        await store.upsert([memory(otherTenant, 'shared', { vector: axis(2), content: 'other tenant' })]);

        expect((await store.get(scope, ['shared']))[0]!.content).to.equal('mine');
        expect((await store.get(otherUser, ['shared']))[0]!.content).to.equal('other user');
        expect((await store.get(otherTenant, ['shared']))[0]!.content).to.equal('other tenant');
        expect(await store.get(scope, ['only-other-user'])).to.deep.equal([]);
        expect(await store.get(otherTenant, ['only-mine'])).to.deep.equal([]);

        const mine = await store.knn(scope, { vector: axis(0), k: 10 });
        expect(mine.map((h) => h.id).sort()).to.deep.equal(['only-mine', 'shared']);
        const theirs = await store.knn(otherUser, { vector: axis(0), k: 10 });
        expect(theirs.map((h) => h.id).sort()).to.deep.equal(['only-other-user', 'shared']);
        expect(theirs.find((h) => h.id === 'shared')!.score, 'the other user sees its own vector').to.be.closeTo(0, 1e-4);

        expect(await store.count(scope)).to.equal(2);
        expect(await store.count(otherTenant)).to.equal(1);
        expect(await store.delete(otherTenant, ['shared', 'only-mine'])).to.equal(1);
        expect(await store.count(scope)).to.equal(2);
        expect(await store.count(otherUser)).to.equal(2);
      });

      it('does not confuse scopes whose ids join to the same text', async () => {
        const base = scope.tenantId;
        const left: Scope = { tenantId: `${base}/x`, endUserId: 'y' };
        const right: Scope = { tenantId: base, endUserId: 'x/y' };
        await store.upsert([memory(left, 'm', { content: 'left' })]);
        await store.upsert([memory(right, 'm', { content: 'right' })]);
        expect((await store.get(left, ['m']))[0]!.content).to.equal('left');
        expect((await store.get(right, ['m']))[0]!.content).to.equal('right');
        expect(await store.count(left)).to.equal(1);
      });
    });

    describeLexicalIdentifiersAndTime({ store: () => store, scope: () => scope, memory, dims });
    describeListing({ store: () => store, scope: () => scope, memory });
    describeFilters({ store: () => store, scope: () => scope, memory, dims });
    describeHistory({ store: () => store, scope: () => scope, memory, dims });
    describeConditionalWrites({ store: () => store, scope: () => scope, memory });

    describe('persistence', () => {
      it('keeps memories, deletions and the index across a reopen', async () => {
        await store.upsert([memory(scope, 'a', { vector: axis(0) }), memory(scope, 'b', { vector: axis(1) }), memory(scope, 'c', { vector: axis(2) })]);
        expect(await store.knn(scope, { vector: axis(1), k: 1 })).to.have.length(1); // builds any in-memory state first
        await store.delete(scope, ['c']);
        store = await harness.reopen();
        expect(await store.count(scope)).to.equal(2);
        expect((await store.get(scope, ['a']))[0]!.vector).to.deep.equal(axis(0));
        const hits = await store.knn(scope, { vector: axis(1), k: 10 });
        expect(hits.map((h) => h.id)).to.deep.equal(['b', 'a']);
        expect((await store.list(scope, { limit: 10 })).map((m) => m.id)).to.deep.equal(['b', 'a']);
        await store.upsert([memory(scope, 'd', { vector: axis(1) })]);
        expect((await store.knn(scope, { vector: axis(1), k: 10 })).map((h) => h.id).sort()).to.deep.equal(['a', 'b', 'd']);
      });
    });
  });
}
