import { expect } from 'chai';
import type { ListPosition, ListQuery, MemoryRecord, Scope, StoredMemory, VectorStore } from '@memory/ports';
import { freshScope, plainRecord } from './memory-fixtures.js';
import { expectCode } from './wait-for.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2024, 2, 1);

export interface ListContractContext {
  /** The store and scope of the running test (set by the contract's beforeEach). */
  store(): VectorStore;
  scope(): Scope;
  memory(scope: Scope, id: string, overrides?: Partial<MemoryRecord>): MemoryRecord;
}

const idsOf = (page: StoredMemory[]) => page.map((memory) => memory.id);
const positionOf = (memory: StoredMemory): ListPosition => ({ createdAt: memory.createdAt, id: memory.id });

/** Every page of a listing, `limit` at a time, calling `between` after each page: the ids in the order read. */
async function readAllPages(store: VectorStore, scope: Scope, query: Omit<ListQuery, 'after'>, between?: (page: number) => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  let after: ListPosition | undefined;
  for (let page = 0; page < 100; page++) {
    const found = await store.list(scope, { ...query, ...(after ? { after } : {}) });
    seen.push(...idsOf(found));
    if (found.length < query.limit) return seen;
    after = positionOf(found[found.length - 1]!);
    await between?.(page);
  }
  throw new Error('more than 100 pages: the listing does not end');
}

/** VectorStore.list, part of the VectorStore contract: order, keyset pages under writes and deletes, every filter, scopes. */
export function describeListing(context: ListContractContext): void {
  const { memory } = context;
  const at = (start: number, end = start) => ({ text: 'then', index: 0, start, end, iso: new Date(start).toISOString(), relative: false });

  describe('list', () => {
    let store: VectorStore;
    let scope: Scope;

    beforeEach(() => {
      store = context.store();
      scope = context.scope();
    });

    it('lists newest first, ties by the larger id, each memory with every field but the vector', async () => {
      const written = [
        memory(scope, 'old', { createdAt: T0 }),
        memory(scope, 'tie-a', { createdAt: T0 + DAY }),
        memory(scope, 'tie-b', { createdAt: T0 + DAY, metadata: { project: 'apollo', priority: 2, pinned: true } }),
        memory(scope, 'new', { createdAt: T0 + 2 * DAY }),
      ];
      await store.upsert(written);
      const page = await store.list(scope, { limit: 10 });
      expect(idsOf(page)).to.deep.equal(['new', 'tie-b', 'tie-a', 'old']);
      const { vector: _vector, ...expected } = plainRecord(written[2]!);
      expect(page[1]).to.not.have.property('vector');
      expect({ ...page[1] }).to.deep.equal(expected);
      expect(idsOf(await store.list(scope, { limit: 2 }))).to.deep.equal(['new', 'tie-b']);
      expect(await store.list(scope, { limit: 0 })).to.deep.equal([]);
      expect(await store.list(freshScope(), { limit: 10 })).to.deep.equal([]);
    });

    it('pages by position: writes and deletes between pages neither skip nor repeat a memory that exists throughout', async () => {
      const name = (i: number) => `m${String(i).padStart(2, '0')}`;
      const initial = Array.from({ length: 12 }, (_, i) => memory(scope, name(i), { createdAt: T0 + i * DAY }));
      await store.upsert(initial);
      const deleted = new Set<string>();
      const seen = await readAllPages(store, scope, { limit: 4 }, async (page) => {
        // One newer than every page read (never listed) and one older than every page (listed at the end).
        await store.upsert([memory(scope, `newer-${page}`, { createdAt: T0 + 100 * DAY }), memory(scope, `older-${page}`, { createdAt: T0 - (page + 1) * DAY })]);
        if (page < 2) {
          // The next page's newest memory gets a neighbour at its own time, and the one after it is deleted.
          const next = 7 - 4 * page;
          await store.upsert([memory(scope, `${name(next)}x`, { createdAt: T0 + next * DAY })]);
          if ((await store.delete(scope, [name(next - 1)])) === 1) deleted.add(name(next - 1));
        }
      });
      const throughout = initial.map((m) => m.id).filter((id) => !deleted.has(id));
      expect(new Set(seen).size, 'no memory twice').to.equal(seen.length);
      expect(seen.filter((id) => throughout.includes(id)), 'every memory that existed throughout, in order').to.deep.equal([...throughout].reverse());
      expect(seen.some((id) => id.startsWith('newer-')), 'memories newer than a read page are not listed').to.equal(false);
      expect(seen.filter((id) => id.startsWith('older-')), 'memories older than the pages still to come are').to.include.members(['older-0', 'older-1']);
      expect(seen, 'a memory written at the next page\'s time, sorting before it').to.include.members(['m07x', 'm03x']);
    });

    it('filters by memory type (any of), job id and creation time [from, to)', async () => {
      await store.upsert([
        memory(scope, 'a', { memoryType: 'fact', jobId: 'job-1', createdAt: T0 }),
        memory(scope, 'b', { memoryType: 'plan', jobId: 'job-1', createdAt: T0 + DAY }),
        memory(scope, 'c', { memoryType: 'experience', jobId: 'job-2', createdAt: T0 + 2 * DAY }),
        memory(scope, 'd', { memoryType: 'fact', jobId: 'job-3', createdAt: T0 + 3 * DAY }),
      ]);
      const list = async (filter: ListQuery['filter']) => idsOf(await store.list(scope, { limit: 10, filter }));
      expect(await list({ memoryTypes: ['fact'] })).to.deep.equal(['d', 'a']);
      expect(await list({ memoryTypes: ['plan', 'experience'] })).to.deep.equal(['c', 'b']);
      expect(await list({ memoryTypes: ['unknown'] })).to.deep.equal([]);
      expect(await list({ jobIds: ['job-1'] })).to.deep.equal(['b', 'a']);
      expect(await list({ jobIds: ['job-1', 'job-3'] })).to.deep.equal(['d', 'b', 'a']);
      expect(await list({ created: { from: T0 + DAY, to: T0 + 3 * DAY } })).to.deep.equal(['c', 'b']);
      expect(await list({ created: { from: T0 + DAY, to: Infinity } })).to.deep.equal(['d', 'c', 'b']);
      expect(await list({ created: { from: -Infinity, to: T0 + DAY } })).to.deep.equal(['a']);
      expect(await list({ memoryTypes: ['fact'], created: { from: T0 + DAY, to: Infinity } })).to.deep.equal(['d']);
      // A page ending inside the created range goes on from its position.
      const first = await store.list(scope, { limit: 1, filter: { created: { from: -Infinity, to: T0 + 3 * DAY } } });
      expect(idsOf(first)).to.deep.equal(['c']);
      expect(idsOf(await store.list(scope, { limit: 5, after: positionOf(first[0]!), filter: { created: { from: -Infinity, to: T0 + 3 * DAY } } }))).to.deep.equal(['b', 'a']);
    });

    it('filters by event times overlapping [from, to), by the creation time for memories without any', async () => {
      await store.upsert([
        memory(scope, 'overlaps', { eventTimes: [at(T0 + DAY, T0 + 3 * DAY)], createdAt: T0 - 50 * DAY }),
        memory(scope, 'instant-inside', { eventTimes: [at(T0 + 2 * DAY)], createdAt: T0 - 40 * DAY }),
        memory(scope, 'ends-at-from', { eventTimes: [at(T0, T0 + DAY)], createdAt: T0 - 30 * DAY }),
        memory(scope, 'created-inside', { createdAt: T0 + 2 * DAY }),
        memory(scope, 'event-outside-created-inside', { eventTimes: [at(T0 + 20 * DAY, T0 + 21 * DAY)], createdAt: T0 + 2 * DAY }),
      ]);
      const page = await store.list(scope, { limit: 10, filter: { events: { from: T0 + DAY, to: T0 + 4 * DAY } } });
      expect(idsOf(page)).to.deep.equal(['created-inside', 'instant-inside', 'overlaps']);
      const after = await store.list(scope, { limit: 10, filter: { events: { from: T0 + 10 * DAY, to: Infinity } } });
      expect(idsOf(after)).to.deep.equal(['event-outside-created-inside']);
    });

    it('filters by metadata: each key equal to the value in its string form, every key given', async () => {
      await store.upsert([
        memory(scope, 'apollo-2', { createdAt: T0, metadata: { project: 'apollo', priority: 2, pinned: true } }),
        memory(scope, 'apollo-2.5', { createdAt: T0 + 1, metadata: { project: 'apollo', priority: 2.5, pinned: false } }),
        memory(scope, 'gemini', { createdAt: T0 + 2, metadata: { project: 'gemini', priority: 2 } }),
        memory(scope, 'none', { createdAt: T0 + 3, metadata: null }),
        memory(scope, 'Apollo', { createdAt: T0 + 4, metadata: { project: 'Apollo' } }),
      ]);
      const list = async (equal: Record<string, string>) => idsOf(await store.list(scope, { limit: 10, filter: { metadata: Object.fromEntries(Object.entries(equal).map(([key, text]) => [key, [text]])) } }));
      expect(await list({ project: 'apollo' })).to.deep.equal(['apollo-2.5', 'apollo-2']);
      expect(await list({ priority: '2' })).to.deep.equal(['gemini', 'apollo-2']);
      expect(await list({ priority: '2.5' })).to.deep.equal(['apollo-2.5']);
      expect(await list({ pinned: 'true' })).to.deep.equal(['apollo-2']);
      expect(await list({ pinned: 'false' })).to.deep.equal(['apollo-2.5']);
      expect(await list({ project: 'apollo', priority: '2' })).to.deep.equal(['apollo-2']);
      expect(await list({ project: 'apollo', missing: 'x' })).to.deep.equal([]);
      expect(await list({ project: 'APOLLO' })).to.deep.equal([]);
    });

    it("lists one end user's memories only, whatever the filter", async () => {
      const otherUser: Scope = { tenantId: scope.tenantId, endUserId: 'other-user' };
      const otherTenant: Scope = { ...freshScope(), endUserId: scope.endUserId };
      const shared = { jobId: 'job-shared', metadata: { project: 'apollo' } };
      await store.upsert([memory(scope, 'mine', shared)]);
      await store.upsert([memory(otherUser, 'theirs', shared), memory(otherUser, 'mine', shared)]);
      await store.upsert([memory(otherTenant, 'other-tenant', shared)]);
      expect(idsOf(await store.list(scope, { limit: 10 }))).to.deep.equal(['mine']);
      expect(idsOf(await store.list(scope, { limit: 10, filter: { jobIds: ['job-shared'], metadata: { project: ['apollo'] } } }))).to.deep.equal(['mine']);
      expect(idsOf(await store.list(otherUser, { limit: 10 }))).to.deep.equal(['theirs', 'mine']);
      expect(idsOf(await store.list(otherTenant, { limit: 10 }))).to.deep.equal(['other-tenant']);
    });

    it('refuses a malformed query with VECTORS.INVALID_QUERY', async () => {
      await expectCode(store.list(scope, { limit: -1 }), 'VECTORS.INVALID_QUERY');
      await expectCode(store.list(scope, { limit: 1.5 }), 'VECTORS.INVALID_QUERY');
      await expectCode(store.list(scope, { limit: 5, after: { createdAt: Number.NaN, id: 'x' } }), 'VECTORS.INVALID_QUERY');
      await expectCode(store.list(scope, { limit: 5, filter: { memoryTypes: 'fact' as unknown as string[] } }), 'VECTORS.INVALID_QUERY');
    });
  });
}
