import { expect } from 'chai';
import { lexicalTerms } from '@memory/lexical';
import type { MemoryRecord, MemoryVersion, Scope, VectorStore } from '@memory/ports';
import { freshScope, unitVector } from './memory-fixtures.js';

export interface HistoryContractContext {
  /** The store and scope of the running test (set by the contract's beforeEach). */
  store(): VectorStore;
  scope(): Scope;
  memory(scope: Scope, id: string, overrides?: Partial<MemoryRecord>): MemoryRecord;
  dims: number;
}

const version = (n: number, content: string, cause: MemoryVersion['cause'] = n === 1 ? 'ingest' : 'update'): MemoryVersion => ({
  version: n, jobId: n === 1 ? 'job-m1' : `upd_job_${n}`, content, changedAt: 1_000 * n, cause,
});

/** A memory's versions (history) are kept with it: replaced with it, deleted with it, confined to its scope. */
export function describeHistory(ctx: HistoryContractContext): void {
  describe('history', () => {
    it('reads a memory written without versions as its one ingested version', async () => {
      const written = ctx.memory(ctx.scope(), 'm1', { content: 'first words', acceptedAt: 42 });
      await ctx.store().upsert([written]);
      expect(await ctx.store().history(ctx.scope(), 'm1')).to.deep.equal([{ version: 1, jobId: 'job-m1', content: 'first words', changedAt: 42, cause: 'ingest' }]);
    });

    it('returns the versions written with the memory, oldest first, and the version with the memory', async () => {
      await ctx.store().upsert([ctx.memory(ctx.scope(), 'm1', { content: 'first', version: 1, versions: [version(1, 'first')] })]);
      await ctx.store().upsert([ctx.memory(ctx.scope(), 'm1', { content: 'second', version: 2, versions: [version(1, 'first'), version(2, 'second')] })]);
      expect(await ctx.store().history(ctx.scope(), 'm1')).to.deep.equal([version(1, 'first'), version(2, 'second')]);
      const [read] = await ctx.store().get(ctx.scope(), ['m1']);
      expect(read!.version).to.equal(2);
      expect(read!.content).to.equal('second');
      const [listed] = await ctx.store().list(ctx.scope(), { limit: 10 });
      expect(listed!.version).to.equal(2);
    });

    it('has no history for an unknown id, another end user\'s or tenant\'s memory, or a deleted one', async () => {
      await ctx.store().upsert([ctx.memory(ctx.scope(), 'm1', { version: 2, versions: [version(1, 'a'), version(2, 'b')] })]);
      expect(await ctx.store().history(ctx.scope(), 'nope')).to.equal(null);
      expect(await ctx.store().history({ ...ctx.scope(), endUserId: 'someone-else' }, 'm1')).to.equal(null);
      expect(await ctx.store().history(freshScope(), 'm1')).to.equal(null);
      await ctx.store().delete(ctx.scope(), ['m1']);
      expect(await ctx.store().history(ctx.scope(), 'm1')).to.equal(null);
      // Written again after a delete, a memory starts a history of its own: nothing of the deleted one comes back.
      await ctx.store().upsert([ctx.memory(ctx.scope(), 'm1', { content: 'anew', acceptedAt: 7 })]);
      expect(await ctx.store().history(ctx.scope(), 'm1')).to.deep.equal([{ version: 1, jobId: 'job-m1', content: 'anew', changedAt: 7, cause: 'ingest' }]);
    });

    it('shows searches exactly one version of a memory while it is being replaced, never both nor neither', async () => {
      const store = ctx.store();
      const scope = ctx.scope();
      const contentOf = (n: number) => `version${n} of the lighthouse keeper note`;
      const written = (n: number) => ctx.memory(scope, 'm1', {
        content: contentOf(n), version: n, vector: unitVector(ctx.dims, { 0: 1, 1: n / 10 }),
        versions: Array.from({ length: n }, (_, i) => version(i + 1, contentOf(i + 1))),
      });
      await store.upsert([written(1), ctx.memory(scope, 'other', { content: 'an unrelated memory', vector: unitVector(ctx.dims, { 2: 1 }) })]);
      let writing = true;
      const writer = (async () => {
        for (let n = 2; n <= 12; n++) await store.upsert([written(n)]);
        writing = false;
      })();
      let reads = 0;
      do {
        const [knn, text, [got]] = await Promise.all([
          store.knn(scope, { vector: unitVector(ctx.dims, { 0: 1 }), k: 10 }),
          store.textSearch(scope, { terms: lexicalTerms('lighthouse keeper'), k: 10 }),
          store.get(scope, ['m1']),
        ]);
        expect(knn.filter((hit) => hit.id === 'm1'), 'kNN hits of the memory').to.have.length(1);
        expect(text.filter((hit) => hit.id === 'm1'), 'text hits of the memory').to.have.length(1);
        expect(got, 'the memory by id').to.not.equal(undefined);
        expect(got!.content).to.equal(contentOf(got!.version!));
        reads++;
        // Reads that complete without I/O would starve the writer's commits of the event loop.
        await new Promise((resolve) => setImmediate(resolve));
      } while (writing);
      await writer;
      expect(reads).to.be.greaterThan(0);
      expect((await store.get(scope, ['m1']))[0]!.version).to.equal(12);
      expect(await store.count(scope)).to.equal(2);
    });
  });
}
