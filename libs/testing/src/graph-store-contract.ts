import { expect } from 'chai';
import { graphIds, type EdgeKind, type GraphEdge, type GraphNode, type GraphStore, type Neighbour, type NodeKind, type Scope } from '@memory/ports';
import { freshScope } from './memory-fixtures.js';
import type { StoreFactory, StoreHarness } from './store-harness.js';

const node = (scope: Scope, id: string, kind: NodeKind, label: string, entityType?: string): GraphNode => ({
  id,
  kind,
  tenantId: scope.tenantId,
  endUserId: scope.endUserId,
  label,
  ...(entityType ? { entityType } : {}),
});

const edge = (scope: Scope, from: string, kind: EdgeKind, to: string): GraphEdge => ({ from, to, kind, tenantId: scope.tenantId, endUserId: scope.endUserId });

/**
 * One end user's graph:
 *   user -owns-> m1, user -owns-> m2, m1 -next-> m2, m1 -mentions-> alice, m2 -mentions-> alice, m2 -mentions-> paris
 * Memory ids are the same in every scope (as replays of two users' identical jobs never are, but ids alone must
 * not decide isolation).
 */
function graphOf(scope: Scope) {
  const ids = {
    user: graphIds.user(scope),
    m1: graphIds.memory('m1'),
    m2: graphIds.memory('m2'),
    alice: graphIds.entity(scope, 'person:alice'),
    paris: graphIds.entity(scope, 'place:paris'),
  };
  const nodes = [
    node(scope, ids.user, 'user', scope.endUserId),
    node(scope, ids.m1, 'memory', 'Met Alice'),
    node(scope, ids.m2, 'memory', 'Alice moved to Paris'),
    node(scope, ids.alice, 'entity', 'Alice', 'person'),
    node(scope, ids.paris, 'entity', 'Paris', 'place'),
  ];
  const edges = [
    edge(scope, ids.user, 'owns', ids.m1),
    edge(scope, ids.user, 'owns', ids.m2),
    edge(scope, ids.m1, 'next', ids.m2),
    edge(scope, ids.m1, 'mentions', ids.alice),
    edge(scope, ids.m2, 'mentions', ids.alice),
    edge(scope, ids.m2, 'mentions', ids.paris),
  ];
  return { ids, nodes, edges };
}

/** Neighbours as comparable text, order-free within the result. */
const reached = (found: Neighbour[]) => found.map((n) => `${n.depth}:${n.node.id}`).sort();

/** The behaviour every GraphStore adapter must show, embedded or ArangoDB; each test uses scopes of its own. */
export function describeGraphStoreContract(adapterName: string, factory: StoreFactory<GraphStore>): void {
  describe(`GraphStore contract: ${adapterName}`, function () {
    this.timeout(30_000);
    let harness: StoreHarness<GraphStore>;
    let store: GraphStore;
    let scope: Scope;
    let g: ReturnType<typeof graphOf>;

    beforeEach(async () => {
      harness = await factory();
      store = harness.store;
      scope = freshScope();
      g = graphOf(scope);
      await store.upsert(g.nodes, g.edges);
    });

    afterEach(async () => {
      await harness.cleanup();
    });

    it('returns stored nodes in the order asked, skipping unknown ids', async () => {
      const found = await store.getNodes(scope, [g.ids.alice, 'memory:missing', g.ids.user]);
      expect(found).to.deep.equal([g.nodes[3], g.nodes[0]]);
    });

    it('is idempotent: writing the same nodes and edges again changes nothing', async () => {
      await store.upsert(g.nodes, g.edges);
      await store.upsert(g.nodes.slice(0, 2), g.edges.slice(0, 1));
      expect(await store.getNodes(scope, [g.ids.user])).to.have.length(1);
      expect(reached(await store.neighbours(scope, g.ids.user))).to.deep.equal([`1:${g.ids.m1}`, `1:${g.ids.m2}`]);
      expect(await store.neighbours(scope, g.ids.alice)).to.have.length(2);
    });

    it('links a document to its pages and each page to the next, and walks them', async () => {
      const doc = graphIds.document('doc_job_1_alice');
      const pages = [1, 2, 3].map((n) => graphIds.memory(`mem_doc_job_1_alice_${n - 1}`));
      await store.upsert(
        [node(scope, doc, 'document', 'manual.pdf'), ...pages.map((id, i) => node(scope, id, 'memory', `page ${i + 1}`))],
        [edge(scope, g.ids.user, 'owns', doc), ...pages.map((id) => edge(scope, doc, 'contains', id)), edge(scope, pages[0]!, 'next', pages[1]!), edge(scope, pages[1]!, 'next', pages[2]!)],
      );
      expect((await store.getNodes(scope, [doc]))[0]).to.include({ kind: 'document', label: 'manual.pdf' });
      expect(reached(await store.neighbours(scope, doc, { edgeKinds: ['contains'] }))).to.deep.equal(pages.map((id) => `1:${id}`).sort());
      // Page 2's neighbours along the document: the pages before and after it.
      expect(reached(await store.neighbours(scope, pages[1]!, { edgeKinds: ['next'] }))).to.deep.equal([`1:${pages[0]}`, `1:${pages[2]}`].sort());
    });

    it('replaces a node written again with new fields', async () => {
      await store.upsert([{ ...g.nodes[3]!, label: 'Alice Smith' }], []);
      expect((await store.getNodes(scope, [g.ids.alice]))[0]!.label).to.equal('Alice Smith');
    });

    it('finds neighbours at depth 1 in both directions, with the edge as stored', async () => {
      const fromUser = await store.neighbours(scope, g.ids.user);
      expect(reached(fromUser)).to.deep.equal([`1:${g.ids.m1}`, `1:${g.ids.m2}`]);
      expect(fromUser.every((n) => n.edge.kind === 'owns' && n.edge.from === g.ids.user)).to.equal(true);

      const fromAlice = await store.neighbours(scope, g.ids.alice, { depth: 1 });
      expect(reached(fromAlice)).to.deep.equal([`1:${g.ids.m1}`, `1:${g.ids.m2}`]);
      const viaM1 = fromAlice.find((n) => n.node.id === g.ids.m1)!;
      expect(viaM1.edge).to.deep.equal(edge(scope, g.ids.m1, 'mentions', g.ids.alice));
      expect(viaM1.node).to.deep.equal(g.nodes[1]);
    });

    it('walks to depth 2, each node once at its shortest depth, never the start', async () => {
      const found = await store.neighbours(scope, g.ids.paris, { depth: 2 });
      expect(reached(found)).to.deep.equal([`1:${g.ids.m2}`, `2:${g.ids.alice}`, `2:${g.ids.m1}`, `2:${g.ids.user}`].sort());
      expect(found.every((n) => n.node.id !== g.ids.paris)).to.equal(true);
    });

    it('follows only the edge kinds asked for', async () => {
      expect(reached(await store.neighbours(scope, g.ids.m1, { edgeKinds: ['mentions'] }))).to.deep.equal([`1:${g.ids.alice}`]);
      expect(reached(await store.neighbours(scope, g.ids.m1, { edgeKinds: ['next'] }))).to.deep.equal([`1:${g.ids.m2}`]);
      expect(reached(await store.neighbours(scope, g.ids.m1, { depth: 2, edgeKinds: ['mentions'] }))).to.deep.equal([`1:${g.ids.alice}`, `2:${g.ids.m2}`]);
      expect(reached(await store.neighbours(scope, g.ids.m1, { edgeKinds: ['owns', 'next'] }))).to.deep.equal([`1:${g.ids.m2}`, `1:${g.ids.user}`]);
    });

    it('has no neighbours for an unknown node', async () => {
      expect(await store.neighbours(scope, 'memory:missing', { depth: 3 })).to.deep.equal([]);
    });

    it('counts the edges of one kind touching each node, either direction, in this scope only', async () => {
      const other = freshScope();
      const theirs = graphOf(other);
      await store.upsert(theirs.nodes, [...theirs.edges, edge(other, graphIds.memory('m3'), 'mentions', theirs.ids.alice)]);
      const mentions = await store.degrees(scope, [g.ids.alice, g.ids.paris, g.ids.m2, 'entity:missing'], 'mentions');
      expect([...mentions].sort()).to.deep.equal([
        [g.ids.alice, 2],
        [g.ids.m2, 2],
        [g.ids.paris, 1],
        ['entity:missing', 0],
      ].sort());
      expect((await store.degrees(scope, [g.ids.m1], 'next')).get(g.ids.m1)).to.equal(1);
      expect((await store.degrees(other, [theirs.ids.alice], 'mentions')).get(theirs.ids.alice)).to.equal(3);
      expect(await store.degrees(scope, [], 'owns')).to.deep.equal(new Map());
    });

    it('finds entities of the end user by key', async () => {
      const found = await store.findEntities(scope, ['place:paris', 'person:nobody', 'person:alice']);
      expect(found.map((n) => n.id).sort()).to.deep.equal([g.ids.alice, g.ids.paris].sort());
      expect(found.every((n) => n.kind === 'entity')).to.equal(true);
      expect(await store.findEntities(scope, [])).to.deep.equal([]);
    });

    it('deletes nodes with their edges in both directions', async () => {
      expect(await store.deleteNodes(scope, [g.ids.m1, 'memory:missing'])).to.equal(1);
      expect(await store.getNodes(scope, [g.ids.m1])).to.deep.equal([]);
      expect(reached(await store.neighbours(scope, g.ids.user))).to.deep.equal([`1:${g.ids.m2}`]);
      expect(reached(await store.neighbours(scope, g.ids.alice))).to.deep.equal([`1:${g.ids.m2}`]);
      expect(reached(await store.neighbours(scope, g.ids.m2))).to.deep.equal([`1:${g.ids.alice}`, `1:${g.ids.paris}`, `1:${g.ids.user}`]);
      expect(await store.deleteNodes(scope, [g.ids.m1])).to.equal(0);
    });

    it('erases every node and edge of one end user, and nothing of another', async () => {
      const otherUser: Scope = { tenantId: scope.tenantId, endUserId: `${scope.endUserId}-other` };
      const other = graphOf(otherUser);
      await store.upsert(other.nodes, other.edges);
      expect(await store.erase(scope)).to.deep.equal({ nodes: 5, edges: 6 });
      expect(await store.getNodes(scope, g.nodes.map((n) => n.id))).to.deep.equal([]);
      expect(await store.neighbours(scope, g.ids.user, { depth: 3 })).to.deep.equal([]);
      expect(await store.getNodes(otherUser, other.nodes.map((n) => n.id))).to.have.length(5);
      expect(reached(await store.neighbours(otherUser, other.ids.m1))).to.deep.equal([`1:${other.ids.alice}`, `1:${other.ids.m2}`, `1:${other.ids.user}`]);
      expect(await store.erase(scope)).to.deep.equal({ nodes: 0, edges: 0 });
    });

    it('keeps tenants and end users apart, even with the same node ids and when ids are passed explicitly', async () => {
      const otherUser: Scope = { tenantId: scope.tenantId, endUserId: 'other-user' };
      const otherTenant: Scope = { ...freshScope(), endUserId: scope.endUserId };
      const other = graphOf(otherUser);
      await store.upsert([{ ...other.nodes[1]!, label: 'other m1' }, other.nodes[0]!], [other.edges[0]!]);

      expect((await store.getNodes(otherUser, [g.ids.m1]))[0]!.label).to.equal('other m1');
      expect((await store.getNodes(scope, [g.ids.m1]))[0]!.label).to.equal('Met Alice');
      expect(await store.getNodes(otherUser, [g.ids.user, g.ids.alice])).to.deep.equal([]);
      expect(await store.getNodes(otherTenant, g.nodes.map((n) => n.id))).to.deep.equal([]);
      expect(await store.findEntities(otherUser, ['person:alice'])).to.deep.equal([]);
      expect(await store.neighbours(otherTenant, g.ids.user, { depth: 2 })).to.deep.equal([]);

      const fromOtherM1 = await store.neighbours(otherUser, g.ids.m1, { depth: 3 });
      expect(reached(fromOtherM1)).to.deep.equal([`1:${other.ids.user}`]);
      expect(fromOtherM1[0]!.node.tenantId).to.equal(otherUser.tenantId);
      expect(fromOtherM1[0]!.node.endUserId).to.equal(otherUser.endUserId);

      expect(await store.deleteNodes(otherUser, [g.ids.m1, g.ids.alice])).to.equal(1);
      expect(await store.getNodes(scope, [g.ids.m1, g.ids.alice])).to.have.length(2);
      expect(reached(await store.neighbours(scope, g.ids.user))).to.deep.equal([`1:${g.ids.m1}`, `1:${g.ids.m2}`]);
    });

    it('keeps nodes and edges across a reopen', async () => {
      await store.deleteNodes(scope, [g.ids.paris]);
      store = await harness.reopen();
      expect(await store.getNodes(scope, [g.ids.user, g.ids.paris])).to.deep.equal([g.nodes[0]]);
      expect(reached(await store.neighbours(scope, g.ids.m2))).to.deep.equal([`1:${g.ids.alice}`, `1:${g.ids.m1}`, `1:${g.ids.user}`]);
      expect((await store.findEntities(scope, ['person:alice'])).map((n) => n.id)).to.deep.equal([g.ids.alice]);
    });
  });
}
