import { expect } from 'chai';
import { lexicalTerms } from '@memory/lexical';
import type { MemoryRecord, Scope, VectorStore } from '@memory/ports';
import { freshScope, unitVector } from './memory-fixtures.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;

export interface LexicalContractContext {
  /** The store and scope of the running test (set by the contract's beforeEach). */
  store(): VectorStore;
  scope(): Scope;
  memory(scope: Scope, id: string, overrides?: Partial<MemoryRecord>): MemoryRecord;
  dims: number;
}

/**
 * textSearch, findByIdentifiers, inTimeRange and createdNear, part of the VectorStore contract. Each test uses words of its own:
 * an engine whose BM25 statistics span every end user of an index (Elasticsearch) must rank these memories as one
 * that counts a single end user's (the embedded store).
 */
export function describeLexicalIdentifiersAndTime(context: LexicalContractContext): void {
  const { memory, dims } = context;
  const text = (content: string): Partial<MemoryRecord> => ({ content, originalContent: content });
  const at = (start: number, end = start) => ({ text: 'then', index: 0, start, end, iso: new Date(start).toISOString(), relative: false });

  describe('lexical, identifiers and time', () => {
    let store: VectorStore;
    let scope: Scope;

    beforeEach(() => {
      store = context.store();
      scope = context.scope();
    });

    describe('textSearch', () => {
      it('ranks the memory sharing the rarer query word first, best first with positive BM25 scores', async () => {
        await store.upsert([
          memory(scope, 'rare', text('We visited the zeppelin museum')),
          memory(scope, 'common-1', text('Walked around the lake after lunch')),
          memory(scope, 'common-2', text('The lake was frozen this morning')),
          memory(scope, 'common-3', text('Swimming in the lake with friends')),
          memory(scope, 'unrelated', text('Bought new running shoes')),
        ]);
        const hits = await store.textSearch(scope, { terms: lexicalTerms('zeppelin lakes'), k: 10 });
        expect(hits[0]?.id).to.equal('rare');
        expect(hits.map((h) => h.id).sort()).to.deep.equal(['common-1', 'common-2', 'common-3', 'rare']);
        for (const [i, hit] of hits.entries()) {
          expect(hit.score).to.be.greaterThan(0);
          if (i > 0) expect(hit.score).to.be.at.most(hits[i - 1]!.score);
        }
      });

      it('matches words by their stem, finds nothing for unknown words or no terms, and nothing of another end user or tenant', async () => {
        const otherUser: Scope = { tenantId: scope.tenantId, endUserId: 'other-user' };
        const otherTenant: Scope = { ...freshScope(), endUserId: scope.endUserId };
        await store.upsert([memory(scope, 'mine', text('Finished the quarterly budget spreadsheets'))]);
        await store.upsert([memory(otherUser, 'theirs', text('Finished the quarterly budget spreadsheets'))]);
        await store.upsert([memory(otherTenant, 'other-tenant', text('Finished the quarterly budget spreadsheets'))]);
        expect((await store.textSearch(scope, { terms: lexicalTerms('Spreadsheet budgeting'), k: 10 })).map((h) => h.id)).to.deep.equal(['mine']);
        expect((await store.textSearch(otherUser, { terms: lexicalTerms('budget'), k: 10 })).map((h) => h.id)).to.deep.equal(['theirs']);
        expect(await store.textSearch(scope, { terms: lexicalTerms('xylophone'), k: 10 })).to.deep.equal([]);
        expect(await store.textSearch(scope, { terms: [], k: 10 })).to.deep.equal([]);
        expect(await store.textSearch(freshScope(), { terms: lexicalTerms('budget'), k: 10 })).to.deep.equal([]);
      });

      it("ranks one end user's memories by that user's word counts, whatever other users write", async () => {
        // For this user "quince" and "harbour" are equally rare; the shorter memory leads. Another user writing
        // "quince" everywhere makes it a common word of the index, not of this user.
        await store.upsert([
          memory(scope, 'quince', text('Quince jam')),
          memory(scope, 'harbour', text('Harbour walk at dawn, cold wind')),
          memory(scope, 'other', text('Lunch with my sister')),
        ]);
        const terms = lexicalTerms('quince harbour');
        const before = await store.textSearch(scope, { terms, k: 10 });
        expect(before.map((h) => h.id)).to.deep.equal(['quince', 'harbour']);
        const neighbour: Scope = { tenantId: scope.tenantId, endUserId: `${scope.endUserId}-neighbour` };
        await store.upsert(Array.from({ length: 40 }, (_, i) => memory(neighbour, `n${i}`, text(`Quince tart number ${i}`))));
        const after = await store.textSearch(scope, { terms, k: 10 });
        expect(after.map((h) => h.id)).to.deep.equal(['quince', 'harbour']);
        expect(after[0]!.score / after[1]!.score).to.be.closeTo(before[0]!.score / before[1]!.score, 0.2);
      });

      it('honours the time range (event times, else creation time) and k', async () => {
        const t0 = Date.UTC(2024, 2, 1);
        await store.upsert([
          memory(scope, 'event-inside', { ...text('Violin lesson with Anna'), eventTimes: [at(t0 + DAY, t0 + DAY + HOUR)], createdAt: t0 - 40 * DAY }),
          memory(scope, 'created-inside', { ...text('Violin practice, scales'), createdAt: t0 + 2 * DAY }),
          memory(scope, 'event-outside', { ...text('Violin concert'), eventTimes: [at(t0 + 30 * DAY)], createdAt: t0 + 2 * DAY }),
          memory(scope, 'created-outside', { ...text('New violin strings'), createdAt: t0 - 5 * DAY }),
        ]);
        const terms = lexicalTerms('violin');
        const inRange = await store.textSearch(scope, { terms, k: 10, timeRange: { from: t0, to: t0 + 7 * DAY } });
        expect(inRange.map((h) => h.id).sort()).to.deep.equal(['created-inside', 'event-inside']);
        expect(await store.textSearch(scope, { terms, k: 10 })).to.have.length(4);
        expect(await store.textSearch(scope, { terms, k: 2 })).to.have.length(2);
        expect(await store.textSearch(scope, { terms, k: 0 })).to.deep.equal([]);
      });

      it('follows a memory written again (its old words no longer find it) and forgets a deleted one', async () => {
        await store.upsert([memory(scope, 'm1', text('Pottery class about glazing, ticket TKT-5521'))]);
        expect((await store.textSearch(scope, { terms: lexicalTerms('pottery'), k: 5 })).map((h) => h.id)).to.deep.equal(['m1']);
        await store.upsert([memory(scope, 'm1', text('Sailing trip around the bay'))]);
        expect(await store.textSearch(scope, { terms: lexicalTerms('pottery glazing'), k: 5 })).to.deep.equal([]);
        expect(await store.findByIdentifiers(scope, ['tkt-5521'], 5)).to.deep.equal([]);
        expect((await store.textSearch(scope, { terms: lexicalTerms('sailing'), k: 5 })).map((h) => h.id)).to.deep.equal(['m1']);
        expect(await store.findByIdentifiers(scope, ['m1'], 5)).to.deep.equal(['m1']);
        await store.delete(scope, ['m1']);
        expect(await store.textSearch(scope, { terms: lexicalTerms('sailing'), k: 5 })).to.deep.equal([]);
        expect(await store.findByIdentifiers(scope, ['m1', 'job-m1'], 5)).to.deep.equal([]);
      });
    });

    describe('findByIdentifiers', () => {
      it('finds a memory by a code written in it, by its id and by its job id, exactly', async () => {
        await store.upsert([
          memory(scope, 'm-order', text('My order ORD-2024-1187 has not arrived yet')),
          memory(scope, 'm-other-order', text('Order ORD-2024-1188 arrived on time')),
          memory(scope, 'm-plain', text('An order of fries and a milkshake')),
        ]);
        expect(await store.findByIdentifiers(scope, ['ord-2024-1187'], 10)).to.deep.equal(['m-order']);
        expect(await store.findByIdentifiers(scope, ['ORD-2024-1187'], 10), 'lower-cased like the index').to.deep.equal(['m-order']);
        expect(await store.findByIdentifiers(scope, ['ord-2024'], 10), 'only whole identifiers').to.deep.equal([]);
        expect(await store.findByIdentifiers(scope, ['m-plain'], 10)).to.deep.equal(['m-plain']);
        expect(await store.findByIdentifiers(scope, ['job-m-other-order'], 10)).to.deep.equal(['m-other-order']);
        expect((await store.findByIdentifiers(scope, ['ord-2024-1187', 'ord-2024-1188', 'unknown-1'], 10)).sort()).to.deep.equal(['m-order', 'm-other-order']);
        expect(await store.findByIdentifiers(scope, [], 10)).to.deep.equal([]);
      });

      it('finds every part of one job, at most limit, and nothing of another end user or tenant', async () => {
        const otherUser: Scope = { tenantId: scope.tenantId, endUserId: 'other-user' };
        const otherTenant: Scope = { ...freshScope(), endUserId: scope.endUserId };
        await store.upsert(['part-0', 'part-1', 'part-2'].map((id, i) => memory(scope, id, { jobId: 'job-77', partIndex: i, partCount: 3 })));
        await store.upsert([memory(otherUser, 'theirs', { ...text('Invoice INV-4471'), jobId: 'job-77' })]);
        await store.upsert([memory(otherTenant, 'other-tenant', { ...text('Invoice INV-4471'), jobId: 'job-77' })]);
        expect((await store.findByIdentifiers(scope, ['job-77'], 10)).sort()).to.deep.equal(['part-0', 'part-1', 'part-2']);
        expect(await store.findByIdentifiers(scope, ['job-77'], 2)).to.have.length(2);
        expect(await store.findByIdentifiers(scope, ['job-77'], 0)).to.deep.equal([]);
        expect(await store.findByIdentifiers(scope, ['inv-4471', 'theirs'], 10)).to.deep.equal([]);
        expect(await store.findByIdentifiers(otherUser, ['inv-4471'], 10)).to.deep.equal(['theirs']);
      });
    });

    describe('inTimeRange', () => {
      const t0 = Date.UTC(2024, 4, 1);
      const range = { from: t0, to: t0 + 10 * DAY };
      const middle = t0 + 5 * DAY;

      const seed = async () => {
        await store.upsert([
          memory(scope, 'event-mid', { eventTimes: [at(middle - HOUR, middle + HOUR)], createdAt: t0 - 90 * DAY }),
          memory(scope, 'spanning', { eventTimes: [at(t0 - 5 * DAY, t0 + 30 * DAY)] }),
          memory(scope, 'created-late', { createdAt: t0 + 7 * DAY }),
          memory(scope, 'long-before', { eventTimes: [at(t0 - 20 * DAY, t0 + 2 * DAY)] }),
          memory(scope, 'two-mentions', { eventTimes: [at(t0 - 3 * DAY), at(t0 + 8 * DAY)] }),
          memory(scope, 'event-early', { eventTimes: [at(t0 + DAY)], createdAt: middle }),
          memory(scope, 'event-outside-created-inside', { eventTimes: [at(t0 + 20 * DAY, t0 + 21 * DAY)], createdAt: middle }),
          memory(scope, 'created-outside', { createdAt: t0 - DAY }),
          memory(scope, 'instant-at-to', { eventTimes: [at(range.to)] }),
          memory(scope, 'ends-at-from', { eventTimes: [at(t0 - DAY, t0)] }),
        ]);
        await store.upsert([memory({ tenantId: scope.tenantId, endUserId: 'other-user' }, 'theirs', { createdAt: middle })]);
      };

      it('returns the memories overlapping the range, nearest the middle first, with that nearest moment', async () => {
        await seed();
        expect(await store.inTimeRange(scope, range, 20)).to.deep.equal([
          { id: 'event-mid', time: middle }, // an interval holding the middle: the middle itself
          { id: 'spanning', time: middle }, // a tie, broken by id
          { id: 'created-late', time: t0 + 7 * DAY }, // no event times: the creation time
          { id: 'long-before', time: t0 + 2 * DAY }, // the interval's point nearest the middle
          { id: 'two-mentions', time: t0 + 8 * DAY }, // the mention inside the range
          { id: 'event-early', time: t0 + DAY }, // event times win over a creation time nearer the middle
        ]);
      });

      it('honours the limit', async () => {
        await seed();
        expect((await store.inTimeRange(scope, range, 3)).map((hit) => hit.id)).to.deep.equal(['event-mid', 'spanning', 'created-late']);
        expect(await store.inTimeRange(scope, range, 0)).to.deep.equal([]);
        expect(await store.inTimeRange(freshScope(), range, 5)).to.deep.equal([]);
      });

      it('counts what each of several ranges holds, as inTimeRange finds them', async () => {
        await seed();
        const before = { from: t0 - 30 * DAY, to: t0 - 10 * DAY };
        const empty = { from: t0 + 40 * DAY, to: t0 + 50 * DAY };
        const counts = await store.countInTimeRanges(scope, [range, before, empty]);
        expect(counts).to.deep.equal([(await store.inTimeRange(scope, range, 50)).length, (await store.inTimeRange(scope, before, 50)).length, 0]);
        expect(counts[0]).to.equal(6);
        expect(await store.countInTimeRanges(freshScope(), [range])).to.deep.equal([0]);
        expect(await store.countInTimeRanges(scope, [])).to.deep.equal([]);
      });
    });

    describe('createdNear', () => {
      const t0 = Date.UTC(2024, 2, 1, 12);
      const minute = 60_000;
      // Each memory's cosine with the query (axis 0) is its own: 'at' 1, then 'after', 'before', 'other-burst'.
      const near = (lean: number) => unitVector(dims, { 0: 1, 1: lean });
      const written = () => [
        memory(scope, 'before', { createdAt: t0 - 2 * minute, vector: near(1) }),
        memory(scope, 'at', { createdAt: t0, vector: near(0) }),
        memory(scope, 'after', { createdAt: t0 + minute, vector: near(0.5) }),
        memory(scope, 'far', { createdAt: t0 + HOUR, vector: near(0) }),
        memory(scope, 'other-burst', { createdAt: t0 + DAY, vector: near(2) }),
      ];
      const query = { instants: [t0 + DAY, t0], windowMs: 2 * minute, limit: 10, vector: unitVector(dims, { 0: 1 }) };

      it('lists the memories created within the window of any instant, in scope, with their creation time and cosine with the query, most similar first', async () => {
        await store.upsert(written());
        await store.upsert([memory({ tenantId: scope.tenantId, endUserId: 'other-user' }, 'theirs', { createdAt: t0, vector: near(0) })]);
        const found = await store.createdNear(scope, query);
        expect(found.map(({ id, time }) => ({ id, time }))).to.deep.equal([
          { id: 'at', time: t0 },
          { id: 'after', time: t0 + minute },
          { id: 'before', time: t0 - 2 * minute },
          { id: 'other-burst', time: t0 + DAY },
        ]);
        const cosines = [1, 1 / Math.hypot(1, 0.5), 1 / Math.hypot(1, 1), 1 / Math.hypot(1, 2)];
        found.forEach((hit, i) => expect(hit.score).to.be.closeTo(cosines[i]!, 1e-5));
        expect(await store.createdNear(scope, { ...query, instants: [] })).to.deep.equal([]);
        expect(await store.createdNear(freshScope(), query)).to.deep.equal([]);
        const times = await store.creationTimes(scope, ['at', 'far', 'missing', 'theirs']);
        expect([...times].sort()).to.deep.equal([['at', t0], ['far', t0 + HOUR]]);
      });

      it('returns at most the limit when more are in the windows, each with its own cosine, most similar first', async () => {
        await store.upsert(written());
        const all = new Map((await store.createdNear(scope, query)).map((hit) => [hit.id, hit.score]));
        const some = await store.createdNear(scope, { ...query, limit: 2 });
        expect(some).to.have.length(2);
        for (const hit of some) expect(hit.score).to.be.closeTo(all.get(hit.id)!, 1e-6);
        expect(some[0]!.score).to.be.at.least(some[1]!.score);
        expect(await store.createdNear(scope, { ...query, limit: 0 })).to.deep.equal([]);
      });
    });
  });
}
