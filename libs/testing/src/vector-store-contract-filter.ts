import { expect } from 'chai';
import { lexicalTerms } from '@memory/lexical';
import type { MemoryFilter, MemoryRecord, Scope, VectorStore } from '@memory/ports';
import { unitVector } from './memory-fixtures.js';
import { expectCode } from './wait-for.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2024, 4, 1);

export interface FilterContractContext {
  /** The store and scope of the running test (set by the contract's beforeEach). */
  store(): VectorStore;
  scope(): Scope;
  memory(scope: Scope, id: string, overrides?: Partial<MemoryRecord>): MemoryRecord;
  dims: number;
}

/**
 * The memory filter on every query search uses (knn, textSearch, findByIdentifiers, inTimeRange, createdNear, matching), part
 * of the VectorStore contract: each kind of condition means what matchesFilter says, and the filter is applied
 * inside the query, so the k best matching memories come back when the unfiltered k best all fail it.
 */
export function describeFilters(context: FilterContractContext): void {
  const { memory, dims } = context;
  const axis = (i: number) => unitVector(dims, { [i]: 1 });
  const at = (start: number, end: number) => ({ text: 'then', index: 0, start, end, iso: new Date(start).toISOString(), relative: false });
  // One word and one identifier every memory holds, so each query kind can see all of them.
  const content = (extra = '') => {
    const text = `Order ORD-2024-1187 about the zeppelin ${extra}`.trim();
    return { content: text, originalContent: text };
  };

  describe('memory filter', () => {
    let store: VectorStore;
    let scope: Scope;

    beforeEach(() => {
      store = context.store();
      scope = context.scope();
    });

    /** The ids each query kind returns for the filter, with limits far above the memories written. */
    const everyQueryKind = async (filter: MemoryFilter) => {
      const sorted = (ids: string[]) => [...ids].sort();
      return {
        knn: sorted((await store.knn(scope, { vector: axis(0), k: 50, filter })).map((hit) => hit.id)),
        textSearch: sorted((await store.textSearch(scope, { terms: lexicalTerms('zeppelin'), k: 50, filter })).map((hit) => hit.id)),
        findByIdentifiers: sorted(await store.findByIdentifiers(scope, ['ORD-2024-1187'], 50, filter)),
        inTimeRange: sorted((await store.inTimeRange(scope, { from: T0 - 100 * DAY, to: T0 + 100 * DAY }, 50, filter)).map((hit) => hit.id)),
        createdNear: sorted((await store.createdNear(scope, { instants: [T0], windowMs: 30 * DAY, limit: 50, vector: axis(0), filter })).map((hit) => hit.id)),
      };
    };

    it('means the same on every query kind: types, jobs, creation and event ranges, metadata equality and in, AND, any, not', async () => {
      await store.upsert([
        memory(scope, 'a', { ...content(), memoryType: 'fact', jobId: 'job-1', createdAt: T0, metadata: { project: 'apollo', priority: 2 } }),
        memory(scope, 'b', { ...content(), memoryType: 'plan', jobId: 'job-1', createdAt: T0 + DAY, metadata: { project: 'apollo', priority: 3, pinned: true } }),
        memory(scope, 'c', { ...content(), memoryType: 'fact', jobId: 'job-2', createdAt: T0 + 2 * DAY, metadata: { project: 'gemini', priority: 2 } }),
        memory(scope, 'd', { ...content(), memoryType: 'image', jobId: 'job-3', createdAt: T0 + 3 * DAY, metadata: null, eventTimes: [at(T0 - 10 * DAY, T0 - 9 * DAY)] }),
        memory(scope, 'e', { ...content(), memoryType: 'document_page', jobId: 'job-4', createdAt: T0 + 4 * DAY, metadata: { project: 'apollo' } }),
        memory(scope, 'f', { ...content(), memoryType: 'document_page', jobId: 'job-4', createdAt: T0 + 5 * DAY, metadata: { project: 'mercury', pinned: false } }),
      ]);
      const cases: Array<[MemoryFilter, string[]]> = [
        [{}, ['a', 'b', 'c', 'd', 'e', 'f']],
        [{ memoryTypes: ['fact'] }, ['a', 'c']],
        [{ memoryTypes: ['fact', 'image'] }, ['a', 'c', 'd']],
        [{ jobIds: ['job-4'] }, ['e', 'f']],
        [{ jobIds: ['job-1', 'job-3'] }, ['a', 'b', 'd']],
        [{ created: { from: T0 + DAY, to: T0 + 3 * DAY } }, ['b', 'c']],
        [{ created: { from: T0 + 4 * DAY, to: Infinity } }, ['e', 'f']],
        [{ events: { from: T0 - 10 * DAY, to: T0 - 9 * DAY } }, ['d']],
        // d has event times, so its creation time does not count.
        [{ events: { from: T0 + 3 * DAY, to: Infinity } }, ['e', 'f']],
        [{ metadata: { project: ['apollo'] } }, ['a', 'b', 'e']],
        [{ metadata: { priority: ['2'] } }, ['a', 'c']],
        [{ metadata: { pinned: ['true'] } }, ['b']],
        [{ metadata: { project: ['gemini', 'mercury'] } }, ['c', 'f']],
        [{ metadata: { project: ['apollo'], priority: ['2', '3'] } }, ['a', 'b']],
        [{ memoryTypes: ['fact', 'plan'], metadata: { project: ['apollo'] }, created: { from: T0, to: T0 + DAY } }, ['a']],
        [{ any: [{ memoryTypes: ['image'] }, { metadata: { pinned: ['false'] } }] }, ['d', 'f']],
        [{ not: { metadata: { project: ['apollo'] } } }, ['c', 'd', 'f']],
        [{ memoryTypes: ['document_page'], not: { jobIds: ['job-4'] } }, []],
        [{ metadata: { project: ['APOLLO'] } }, []],
      ];
      for (const [filter, expected] of cases) {
        const found = await everyQueryKind(filter);
        for (const [kind, ids] of Object.entries(found)) expect(ids, `${kind} ${JSON.stringify(filter)}`).to.deep.equal(expected);
      }
    });

    describe('applies the filter inside the query: k matching memories when the unfiltered k best all fail it', () => {
      const k = 3;
      const wanted = { metadata: { project: ['apollo'] } };
      const matching = ['match-0', 'match-1', 'match-2', 'match-3'];

      it('knn', async () => {
        await store.upsert([
          ...Array.from({ length: 20 }, (_, i) => memory(scope, `decoy-${i}`, { vector: axis(0), metadata: { project: 'gemini' } })),
          ...matching.map((id, i) => memory(scope, id, { vector: unitVector(dims, { 0: 1, 1: 1 + i }), metadata: { project: 'apollo' } })),
        ]);
        expect((await store.knn(scope, { vector: axis(0), k })).every((hit) => hit.id.startsWith('decoy-'))).to.equal(true);
        const hits = await store.knn(scope, { vector: axis(0), k, filter: wanted });
        expect(hits.map((hit) => hit.id), 'the nearest matching, nearest first').to.deep.equal(['match-0', 'match-1', 'match-2']);
      });

      it('textSearch', async () => {
        await store.upsert([
          ...Array.from({ length: 20 }, (_, i) => memory(scope, `decoy-${i}`, { content: 'zeppelin zeppelin zeppelin', originalContent: 'zeppelin', metadata: { project: 'gemini' } })),
          ...matching.map((id) => memory(scope, id, { content: 'a zeppelin over the harbour at dawn, seen from the pier', originalContent: 'zeppelin', metadata: { project: 'apollo' } })),
        ]);
        const unfiltered = await store.textSearch(scope, { terms: lexicalTerms('zeppelin'), k });
        expect(unfiltered.map((hit) => hit.id).every((id) => id.startsWith('decoy-'))).to.equal(true);
        const hits = await store.textSearch(scope, { terms: lexicalTerms('zeppelin'), k, filter: wanted });
        expect(hits).to.have.length(k);
        expect(hits.map((hit) => hit.id)).to.satisfy((ids: string[]) => ids.every((id) => matching.includes(id)));
      });

      it('findByIdentifiers', async () => {
        await store.upsert([
          ...Array.from({ length: 20 }, (_, i) => memory(scope, `decoy-${i}`, { ...content(), createdAt: T0 + (i + 10) * DAY, metadata: { project: 'gemini' } })),
          ...matching.map((id, i) => memory(scope, id, { ...content(), createdAt: T0 + i * DAY, metadata: { project: 'apollo' } })),
        ]);
        expect((await store.findByIdentifiers(scope, ['ORD-2024-1187'], k)).every((id) => id.startsWith('decoy-'))).to.equal(true);
        expect(await store.findByIdentifiers(scope, ['ORD-2024-1187'], k, wanted), 'newest first').to.deep.equal(['match-3', 'match-2', 'match-1']);
      });

      it('inTimeRange', async () => {
        const range = { from: T0 - 50 * DAY, to: T0 + 50 * DAY };
        await store.upsert([
          ...Array.from({ length: 20 }, (_, i) => memory(scope, `decoy-${i}`, { createdAt: T0 + i, metadata: { project: 'gemini' } })),
          ...matching.map((id, i) => memory(scope, id, { createdAt: T0 + (i + 1) * 10 * DAY, metadata: { project: 'apollo' } })),
        ]);
        expect((await store.inTimeRange(scope, range, k)).every((hit) => hit.id.startsWith('decoy-'))).to.equal(true);
        const hits = await store.inTimeRange(scope, range, k, wanted);
        expect(hits.map((hit) => hit.id), 'nearest the middle first').to.deep.equal(['match-0', 'match-1', 'match-2']);
      });

      it('createdNear', async () => {
        await store.upsert([
          ...Array.from({ length: 20 }, (_, i) => memory(scope, `decoy-${i}`, { createdAt: T0 + i, vector: axis(0), metadata: { project: 'gemini' } })),
          ...matching.map((id, i) => memory(scope, id, { createdAt: T0 + 100 + i, vector: unitVector(dims, { 0: 1, 1: 1 + i }), metadata: { project: 'apollo' } })),
        ]);
        const query = { instants: [T0], windowMs: DAY, limit: k, vector: axis(0) };
        expect((await store.createdNear(scope, query)).every((hit) => hit.id.startsWith('decoy-'))).to.equal(true);
        const hits = await store.createdNear(scope, { ...query, filter: wanted });
        expect(hits.map(({ id, time }) => ({ id, time })), 'the most similar matching, most similar first').to.deep.equal(matching.slice(0, k).map((id, i) => ({ id, time: T0 + 100 + i })));
      });
    });

    it('tells which of some memories pass a filter, in the order given, leaving out unknown and other users\' ids', async () => {
      const otherUser: Scope = { tenantId: scope.tenantId, endUserId: 'other-user' };
      await store.upsert([
        memory(scope, 'a', { metadata: { project: 'apollo' } }),
        memory(scope, 'b', { metadata: { project: 'gemini' } }),
        memory(scope, 'c', { metadata: { project: 'apollo' }, memoryType: 'plan' }),
      ]);
      await store.upsert([memory(otherUser, 'theirs', { metadata: { project: 'apollo' } })]);
      const filter = { metadata: { project: ['apollo'] } };
      expect(await store.matching(scope, ['c', 'theirs', 'b', 'missing', 'a'], filter)).to.deep.equal(['c', 'a']);
      expect(await store.matching(scope, ['a', 'c'], { ...filter, memoryTypes: ['plan'] })).to.deep.equal(['c']);
      expect(await store.matching(scope, [], filter)).to.deep.equal([]);
    });

    it('follows writes: a memory updated out of the filter leaves it, one deleted is gone', async () => {
      await store.upsert([memory(scope, 'x', { vector: axis(0), metadata: { project: 'apollo' } }), memory(scope, 'y', { vector: axis(0), metadata: { project: 'apollo' } })]);
      const filter = { metadata: { project: ['apollo'] } };
      expect((await store.knn(scope, { vector: axis(0), k: 5, filter })).map((hit) => hit.id).sort()).to.deep.equal(['x', 'y']);
      await store.upsert([memory(scope, 'x', { vector: axis(0), metadata: { project: 'gemini' } }), memory(scope, 'z', { vector: axis(0), metadata: { project: 'apollo' } })]);
      await store.delete(scope, ['y']);
      expect((await store.knn(scope, { vector: axis(0), k: 5, filter })).map((hit) => hit.id)).to.deep.equal(['z']);
    });

    it('refuses a malformed filter with VECTORS.INVALID_QUERY', async () => {
      const bad = { metadata: { project: 'apollo' } } as unknown as MemoryFilter;
      await expectCode(store.knn(scope, { vector: axis(0), k: 1, filter: bad }), 'VECTORS.INVALID_QUERY');
      await expectCode(store.textSearch(scope, { terms: ['zeppelin'], k: 1, filter: bad }), 'VECTORS.INVALID_QUERY');
      await expectCode(store.findByIdentifiers(scope, ['x'], 1, bad), 'VECTORS.INVALID_QUERY');
      await expectCode(store.inTimeRange(scope, { from: 0, to: 1 }, 1, bad), 'VECTORS.INVALID_QUERY');
      await expectCode(store.createdNear(scope, { instants: [0], windowMs: 1, limit: 1, vector: axis(0), filter: bad }), 'VECTORS.INVALID_QUERY');
      await expectCode(store.matching(scope, ['x'], bad), 'VECTORS.INVALID_QUERY');
    });
  });
}
