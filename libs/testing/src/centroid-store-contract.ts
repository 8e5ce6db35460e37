import { expect } from 'chai';
import type { Centroid, CentroidMember, CentroidStore, Scope } from '@memory/ports';
import { expectCode } from './wait-for.js';
import { freshScope } from './memory-fixtures.js';
import type { StoreFactory, StoreHarness } from './store-harness.js';

const centroid = (sum: number[], memoryCount: number, similaritySum: number): Centroid => ({
  embeddingModel: 'test-model@1',
  sum: Float32Array.from(sum),
  memoryCount,
  similaritySum,
});

/** What a save records of each member: a version and a share, different for each id so a mix-up shows. */
const member = (id: string, version = 1): CentroidMember => ({ version, similarity: 0.5 + Number(id.replace(/\D/g, '')) / 10 });
const members = (...ids: string[]): Map<string, CentroidMember> => new Map(ids.map((id) => [id, member(id)]));

const withoutRevision = (stored: Centroid | null) => {
  if (!stored) return stored;
  const { revision, ...rest } = stored;
  expect(revision, 'get tells which save it read').to.be.a('string');
  return rest;
};

/** The behaviour every CentroidStore adapter must show; each test uses scopes of its own. */
export function describeCentroidStoreContract(adapterName: string, factory: StoreFactory<CentroidStore>): void {
  describe(`CentroidStore contract: ${adapterName}`, function () {
    this.timeout(30_000);
    let harness: StoreHarness<CentroidStore>;
    let store: CentroidStore;
    let scope: Scope;

    beforeEach(async () => {
      harness = await factory();
      store = harness.store;
      scope = freshScope();
    });

    afterEach(async () => {
      await harness.cleanup();
    });

    it('has no centroid and no members for a new end user', async () => {
      expect(await store.get(scope)).to.equal(null);
      expect(await store.members(scope, ['m1'])).to.deep.equal(new Map());
    });

    it('saves the centroid with its new members and tells members apart', async () => {
      const first = centroid([0.5, 0.25, -1.5, 3], 2, 1.75);
      await store.save(scope, first, members('m1', 'm2'));
      expect(withoutRevision(await store.get(scope))).to.deep.equal(first);
      expect(await store.members(scope, ['m1', 'm3', 'm2'])).to.deep.equal(members('m1', 'm2'));
    });

    it('replaces the centroid and adds members on the next save', async () => {
      await store.save(scope, centroid([1, 0, 0, 0], 1, 1), members('m1'));
      const second = centroid([1, 1, 0, 0], 2, 1.7);
      await store.save(scope, second, members('m2'));
      expect(withoutRevision(await store.get(scope))).to.deep.equal(second);
      expect(await store.members(scope, ['m1', 'm2', 'm3'])).to.deep.equal(members('m1', 'm2'));
      await store.save(scope, centroid([1, 1, 0, 0], 2, 1.7), members());
      expect(await store.members(scope, ['m1', 'm2'])).to.deep.equal(members('m1', 'm2'));
    });

    it('records a new version of a member over its old one, and leaves the others as they were', async () => {
      await store.save(scope, centroid([1, 1, 0, 0], 2, 1.7), members('m1', 'm2'));
      const corrected = { version: 2, similarity: 0.25 };
      await store.save(scope, centroid([1, 0, 1, 0], 2, 1.2), new Map([['m2', corrected]]));
      expect(await store.members(scope, ['m1', 'm2'])).to.deep.equal(new Map([['m1', member('m1')], ['m2', corrected]]));
      await store.save(scope, centroid([1, 0, 1, 1], 3, 2), members('m3'));
      expect(await store.members(scope, ['m2', 'm3'])).to.deep.equal(new Map([['m2', corrected], ['m3', member('m3')]]));
    });

    it('refuses members without a whole version from 1 or a finite share', async () => {
      for (const bad of [{ version: 0, similarity: 1 }, { version: 1.5, similarity: 1 }, { version: 1, similarity: Number.NaN }]) {
        await expectCode(store.save(scope, centroid([1, 0, 0, 0], 1, 1), new Map([['m1', bad]])), 'VECTORS.INVALID_MEMBER');
      }
      expect(await store.get(scope)).to.equal(null);
    });

    it('saves on a condition: only over the revision it read, or where none exists with null', async () => {
      await store.save(scope, centroid([1, 0, 0, 0], 1, 1), members('m1'), { ifRevision: null });
      const read = (await store.get(scope))!;
      await expectCode(store.save(scope, centroid([9, 9, 9, 9], 1, 1), members('m9'), { ifRevision: null }), 'VECTORS.CENTROID_CHANGED');
      await store.save(scope, centroid([1, 1, 0, 0], 2, 1.5), members('m2'), { ifRevision: read.revision! });
      // The revision read before that save is stale now: nothing of the refused save is written.
      await expectCode(store.save(scope, centroid([9, 9, 9, 9], 3, 2), members('m3'), { ifRevision: read.revision! }), 'VECTORS.CENTROID_CHANGED');
      expect(withoutRevision(await store.get(scope))).to.deep.equal(centroid([1, 1, 0, 0], 2, 1.5));
      expect(await store.members(scope, ['m1', 'm2', 'm3', 'm9'])).to.deep.equal(members('m1', 'm2'));
    });

    it('never gives a centroid saved again after a reset the revision read before it', async () => {
      await store.save(scope, centroid([1, 0, 0, 0], 1, 1), members('m1'));
      const before = (await store.get(scope))!;
      // What a forget does while the calibrator folds: reset, then save the centroid recomputed from the store.
      await store.reset(scope);
      await store.save(scope, centroid([0, 1, 0, 0], 1, 1), members('m2'));
      expect((await store.get(scope))!.revision).to.not.equal(before.revision);
      await expectCode(store.save(scope, centroid([1, 1, 0, 0], 2, 1), members('m3'), { ifRevision: before.revision! }), 'VECTORS.CENTROID_CHANGED');
    });

    it('replaces the centroid and its whole member list at once, on the revision it read', async () => {
      await store.save(scope, centroid([1, 1, 0, 0], 2, 1.5), members('m1', 'm2'));
      await store.save(scope, centroid([1, 1, 1, 0], 3, 2), members('m3'));
      const read = (await store.get(scope))!;
      const recomputed = centroid([1, 0, 1, 0], 2, 1.25);
      await store.replace(scope, recomputed, members('m1', 'm3'), { ifRevision: read.revision! });
      expect(withoutRevision(await store.get(scope))).to.deep.equal(recomputed);
      expect((await store.get(scope))!.revision).to.not.equal(read.revision);
      expect(await store.members(scope, ['m1', 'm2', 'm3'])).to.deep.equal(members('m1', 'm3'));
      // A fold after it adds to the new list; what the replaced centroid counted stays out.
      await store.save(scope, centroid([1, 0, 1, 1], 3, 2), members('m4'));
      expect(await store.members(scope, ['m1', 'm2', 'm3', 'm4'])).to.deep.equal(members('m1', 'm3', 'm4'));
      store = await harness.reopen();
      expect(await store.members(scope, ['m1', 'm2', 'm3', 'm4'])).to.deep.equal(members('m1', 'm3', 'm4'));
    });

    it('refuses a replace over another revision than it read, and changes nothing then', async () => {
      await store.save(scope, centroid([1, 0, 0, 0], 1, 1), members('m1'));
      const read = (await store.get(scope))!;
      // The calibrator folds m2 in between the recompute's read and its replace.
      await store.save(scope, centroid([1, 1, 0, 0], 2, 1.5), members('m2'), { ifRevision: read.revision! });
      await expectCode(store.replace(scope, centroid([9, 9, 9, 9], 1, 1), members('m9'), { ifRevision: read.revision! }), 'VECTORS.CENTROID_CHANGED');
      await expectCode(store.replace(scope, null, new Map(), { ifRevision: read.revision! }), 'VECTORS.CENTROID_CHANGED');
      await expectCode(store.replace(scope, centroid([9, 9, 9, 9], 1, 1), members('m9'), { ifRevision: null }), 'VECTORS.CENTROID_CHANGED');
      expect(withoutRevision(await store.get(scope))).to.deep.equal(centroid([1, 1, 0, 0], 2, 1.5));
      expect(await store.members(scope, ['m1', 'm2', 'm9'])).to.deep.equal(members('m1', 'm2'));
      // A save read before a replace loses to it too.
      const beforeReplace = (await store.get(scope))!;
      await store.replace(scope, centroid([0, 1, 0, 0], 1, 1), members('m2'), { ifRevision: beforeReplace.revision! });
      await expectCode(store.save(scope, centroid([1, 1, 1, 0], 3, 2), members('m3'), { ifRevision: beforeReplace.revision! }), 'VECTORS.CENTROID_CHANGED');
      expect(await store.members(scope, ['m1', 'm2', 'm3'])).to.deep.equal(members('m2'));
    });

    it('replaces with nothing when the end user has no memories left, and creates where none was', async () => {
      await store.save(scope, centroid([1, 0, 0, 0], 1, 1), members('m1'));
      await store.replace(scope, null, new Map(), { ifRevision: (await store.get(scope))!.revision! });
      expect(await store.get(scope)).to.equal(null);
      expect(await store.members(scope, ['m1'])).to.deep.equal(new Map());
      await store.replace(scope, null, new Map(), { ifRevision: null });
      await store.replace(scope, centroid([0, 0, 1, 0], 1, 1), members('m3'), { ifRevision: null });
      expect(withoutRevision(await store.get(scope))).to.deep.equal(centroid([0, 0, 1, 0], 1, 1));
      expect(await store.members(scope, ['m1', 'm3'])).to.deep.equal(members('m3'));
      await expectCode(store.replace(scope, null, members('m1'), { ifRevision: (await store.get(scope))!.revision! }), 'VECTORS.INVALID_MEMBER');
    });

    it('resets one end user\'s centroid and members, so it can be recomputed from scratch', async () => {
      const otherUser: Scope = { tenantId: scope.tenantId, endUserId: 'other-user' };
      await store.save(scope, centroid([1, 0, 0, 0], 2, 1.5), members('m1', 'm2'));
      await store.save(otherUser, centroid([0, 1, 0, 0], 1, 1), members('m1'));
      await store.reset(scope);
      expect(await store.get(scope)).to.equal(null);
      expect(await store.members(scope, ['m1', 'm2'])).to.deep.equal(new Map());
      expect(await store.members(otherUser, ['m1'])).to.deep.equal(members('m1'));
      await store.save(scope, centroid([0, 0, 1, 0], 1, 1), members('m2'));
      expect(await store.members(scope, ['m1', 'm2'])).to.deep.equal(members('m2'));
      await store.reset(freshScope());
    });

    it('keeps tenants and end users apart', async () => {
      const otherUser: Scope = { tenantId: scope.tenantId, endUserId: 'other-user' };
      const otherTenant: Scope = { ...freshScope(), endUserId: scope.endUserId };
      await store.save(scope, centroid([1, 2, 3, 4], 1, 1), members('m1'));
      expect(await store.get(otherUser)).to.equal(null);
      expect(await store.get(otherTenant)).to.equal(null);
      expect(await store.members(otherUser, ['m1'])).to.deep.equal(new Map());
      await store.save(otherTenant, centroid([4, 3, 2, 1], 1, 0.5), members('m2'));
      expect((await store.get(scope))!.sum).to.deep.equal(Float32Array.from([1, 2, 3, 4]));
      expect(await store.members(scope, ['m2'])).to.deep.equal(new Map());
    });

    it('keeps centroids and members across a reopen', async () => {
      const saved = centroid([0.1, 0.2, 0.3, 0.4], 3, 2.5);
      await store.save(scope, saved, members('m1', 'm2', 'm3'));
      store = await harness.reopen();
      expect(withoutRevision(await store.get(scope))).to.deep.equal(saved);
      expect(await store.members(scope, ['m1', 'm2', 'm3', 'm4'])).to.deep.equal(members('m1', 'm2', 'm3'));
    });
  });
}
