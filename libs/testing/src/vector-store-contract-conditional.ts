import { expect } from 'chai';
import type { MemoryRecord, Scope, VectorStore } from '@memory/ports';
import { freshScope } from './memory-fixtures.js';

export interface ConditionalContractContext {
  /** The store and scope of the running test (set by the contract's beforeEach). */
  store(): VectorStore;
  scope(): Scope;
  memory(scope: Scope, id: string, overrides?: Partial<MemoryRecord>): MemoryRecord;
}

/**
 * getRevised and upsertIf: a read-modify-write of a memory (the dual writer's next version) lands only over what it
 * read, so a writer that decided on an older read never replaces what another wrote since.
 */
export function describeConditionalWrites(ctx: ConditionalContractContext): void {
  const contentOf = async (id: string) => (await ctx.store().get(ctx.scope(), [id]))[0]?.content;

  describe('conditional writes', () => {
    it('reads each memory as get does, with a revision; unknown ids and other owners skipped', async () => {
      const [store, scope] = [ctx.store(), ctx.scope()];
      await store.upsert([ctx.memory(scope, 'm1'), ctx.memory(scope, 'm2')]);
      await store.upsert([ctx.memory({ ...scope, endUserId: 'someone-else' }, 'm3')]);
      const read = await store.getRevised(scope, ['m2', 'missing', 'm1', 'm3']);
      expect(read.map(({ record }) => record)).to.deep.equal(await store.get(scope, ['m2', 'm1']));
      read.forEach(({ revision }) => expect(revision).to.be.a('string').and.not.equal(''));
      expect(await store.getRevised(freshScope(), ['m1'])).to.deep.equal([]);
    });

    it('writes over the revision read; a writer that read before it loses, is answered, and changes nothing', async () => {
      const [store, scope] = [ctx.store(), ctx.scope()];
      await store.upsert([ctx.memory(scope, 'm1', { content: 'first' })]);
      const [first] = await store.getRevised(scope, ['m1']);
      const [stale] = await store.getRevised(scope, ['m1']);
      expect(stale!.revision, 'two reads of one write').to.equal(first!.revision);

      expect(await store.upsertIf([{ record: ctx.memory(scope, 'm1', { content: 'second' }), ifRevision: first!.revision }])).to.deep.equal([]);
      expect(await contentOf('m1')).to.equal('second');
      const [second] = await store.getRevised(scope, ['m1']);
      expect(second!.revision, 'a write that changed the memory').to.not.equal(first!.revision);

      const late = ctx.memory(scope, 'm1', { content: 'stale' });
      expect(await store.upsertIf([{ record: late, ifRevision: stale!.revision }])).to.deep.equal([late]);
      expect(await contentOf('m1'), 'the later write kept').to.equal('second');
      expect(await store.count(scope)).to.equal(1);
      expect((await store.knn(scope, { vector: late.vector, k: 5 })).map(({ id }) => id)).to.deep.equal(['m1']);
    });

    it('creates only a memory still absent with a null revision, and never brings back a deleted one', async () => {
      const [store, scope] = [ctx.store(), ctx.scope()];
      expect(await store.upsertIf([{ record: ctx.memory(scope, 'm1', { content: 'first' }), ifRevision: null }])).to.deep.equal([]);
      const second = ctx.memory(scope, 'm1', { content: 'second' });
      expect(await store.upsertIf([{ record: second, ifRevision: null }])).to.deep.equal([second]);
      expect(await contentOf('m1')).to.equal('first');

      const [read] = await store.getRevised(scope, ['m1']);
      await store.delete(scope, ['m1']);
      const after = ctx.memory(scope, 'm1', { content: 'after the delete' });
      expect(await store.upsertIf([{ record: after, ifRevision: read!.revision }])).to.deep.equal([after]);
      expect(await store.get(scope, ['m1'])).to.deep.equal([]);
    });

    it('decides each memory of one call on its own condition', async () => {
      const [store, scope] = [ctx.store(), ctx.scope()];
      await store.upsert([ctx.memory(scope, 'kept', { content: 'old' }), ctx.memory(scope, 'raced', { content: 'old' })]);
      const read = new Map((await store.getRevised(scope, ['kept', 'raced'])).map(({ record, revision }) => [record.id, revision]));
      await store.upsert([ctx.memory(scope, 'raced', { content: 'written meanwhile' })]);
      const raced = ctx.memory(scope, 'raced', { content: 'stale' });
      const lost = await store.upsertIf([
        { record: ctx.memory(scope, 'kept', { content: 'new' }), ifRevision: read.get('kept')! },
        { record: raced, ifRevision: read.get('raced')! },
        { record: ctx.memory(scope, 'created', { content: 'new' }), ifRevision: null },
      ]);
      expect(lost).to.deep.equal([raced]);
      expect((await store.get(scope, ['kept', 'raced', 'created'])).map((m) => [m.id, m.content])).to.deep.equal([
        ['kept', 'new'],
        ['raced', 'written meanwhile'],
        ['created', 'new'],
      ]);
    });

    it('lets exactly one of concurrent writes over the same revision land', async () => {
      const [store, scope] = [ctx.store(), ctx.scope()];
      await store.upsert([ctx.memory(scope, 'm1', { content: 'first' })]);
      const [read] = await store.getRevised(scope, ['m1']);
      const writers = Array.from({ length: 5 }, (_, i) => ctx.memory(scope, 'm1', { content: `writer ${i}` }));
      const lost = (await Promise.all(writers.map((record) => store.upsertIf([{ record, ifRevision: read!.revision }])))).flat();
      expect(lost).to.have.length(4);
      const winner = writers.find((record) => !lost.includes(record))!;
      expect(await contentOf('m1')).to.equal(winner.content);
    });
  });
}
