import { expect } from 'chai';
import type { AqlQuery } from 'arangojs/aql';
import type { GraphEdge, GraphNode } from '@memory/ports';
import { layoutFor, nodeHandle, nodeKey } from './layout.js';
import { degreesQuery, deleteNodesQuery, eraseScopeQuery, neighboursQuery, nodesQuery, upsertQuery } from './queries.js';

// Strings that would change a query if they were ever pasted into its text.
const HOSTILE = ['" RETURN 1 //', "' OR true OR '", '@@users RETURN 1', '`; REMOVE', 'x\nFOR d IN _users RETURN d'];

/** ArangoDB rejects a query whose bind variables and placeholders differ (docs: Bind parameters), so they must match. */
function expectPlaceholdersMatch(query: AqlQuery): void {
  const used = new Set([...query.query.matchAll(/@(@?[A-Za-z0-9_]+)/g)].map((m) => m[1]));
  expect([...used].sort()).to.deep.equal(Object.keys(query.bindVars).sort());
}

function expectNotInText(query: AqlQuery, values: string[]): void {
  for (const value of values) expect(query.query, `query text holds ${JSON.stringify(value)}`).to.not.include(value);
}

/** Collection names bound as @@ variables, by variable. */
const collectionVars = (query: AqlQuery) => Object.fromEntries(Object.entries(query.bindVars).filter(([name]) => name.startsWith('@')));

/** How often each collection is the target of a modification (INSERT ... INTO / REMOVE ... IN). */
function modifications(query: AqlQuery): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const m of query.query.matchAll(/(?:INSERT \w+ INTO|REMOVE \w+ IN) @(@\w+)/g)) {
    const name = String(query.bindVars[m[1]!]);
    counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}

describe('graph-arangodb queries', () => {
  const layout = layoutFor('t_');
  const scope = { tenantId: 'acme', endUserId: 'alice' };
  const node = (id: string, label: string, kind: GraphNode['kind'] = 'memory'): GraphNode => ({ id, kind, label, ...scope });
  const edge = (from: string, kind: GraphEdge['kind'], to: string): GraphEdge => ({ from, to, kind, ...scope });
  const sync = { waitForSync: true };

  describe('upsert', () => {
    it('writes nothing for nothing', () => {
      expect(upsertQuery(layout, [], [], sync)).to.equal(null);
    });

    it('writes all nodes and edges in one query, inserting into each collection once, with replace semantics', () => {
      const query = upsertQuery(
        layout,
        [node('user:acme/alice', 'alice', 'user'), node('memory:m1', 'one'), node('memory:m2', 'two'), node('entity:acme/alice/p', 'P', 'entity')],
        [edge('user:acme/alice', 'owns', 'memory:m1'), edge('memory:m1', 'mentions', 'entity:acme/alice/p'), edge('memory:m1', 'next', 'memory:m2')],
        sync,
      )!;
      expectPlaceholdersMatch(query);
      expect(modifications(query)).to.deep.equal({ t_users: 1, t_memories: 1, t_entities: 1, t_owns: 1, t_mentions: 1, t_next: 1 });
      expect(query.query).to.include('overwriteMode: "replace"').and.include('waitForSync: true');
      expect(query.query.trimEnd()).to.match(/RETURN true$/);
    });

    it('keeps every caller value out of the query text', () => {
      const nodes = HOSTILE.map((text, i) => ({ ...node(`memory:${text}${i}`, text), tenantId: text, endUserId: text }));
      const edges = HOSTILE.map((text) => ({ ...edge(`memory:${text}`, 'next', text), tenantId: text, endUserId: text }));
      const query = upsertQuery(layout, nodes, edges, { waitForSync: false })!;
      expectNotInText(query, HOSTILE);
      expectPlaceholdersMatch(query);
      expect(query.query).to.include('waitForSync: false');
    });

    it('sends one document per key, the last one written in the call', () => {
      const query = upsertQuery(layout, [node('memory:m1', 'first'), node('memory:m1', 'second')], [edge('a', 'next', 'b'), edge('a', 'next', 'b')], sync)!;
      const batches = Object.values(query.bindVars).filter(Array.isArray) as Array<Array<{ _key: string; label?: string }>>;
      expect(batches.map((batch) => batch.length)).to.deep.equal([1, 1]);
      expect(batches[0]![0]).to.include({ _key: nodeKey(scope, 'memory:m1'), label: 'second' });
    });
  });

  describe('nodes by id', () => {
    it('asks nothing for no ids', () => {
      expect(nodesQuery(layout, scope, [])).to.equal(null);
    });

    it('looks up derived keys in each collection, filtered by scope, with values bound', () => {
      const ids = ['memory:m1', 'user:acme/alice', ...HOSTILE];
      const query = nodesQuery(layout, { tenantId: HOSTILE[0]!, endUserId: HOSTILE[1]! }, ids)!;
      expectPlaceholdersMatch(query);
      expectNotInText(query, HOSTILE);
      expect(Object.values(collectionVars(query)).sort()).to.deep.equal(['t_memories', 't_other_nodes', 't_users']);
      const keyLists = Object.values(query.bindVars).filter(Array.isArray).flat();
      expect(keyLists).to.include(nodeKey({ tenantId: HOSTILE[0]!, endUserId: HOSTILE[1]! }, 'memory:m1'));
      expect(keyLists).to.not.include('memory:m1');
      expect(query.query).to.match(/d\.tenantId == @\w+ AND d\.endUserId == @\w+/);
      expect(query.query).to.not.include('d.kind');
    });

    it('filters by kind only when asked', () => {
      const query = nodesQuery(layout, scope, ['entity:acme/alice/p'], 'entity')!;
      expectPlaceholdersMatch(query);
      expect(query.query).to.match(/d\.kind == @\w+/);
      expect(Object.values(query.bindVars)).to.include('entity');
    });
  });

  describe('degrees', () => {
    it('asks nothing for no ids', () => {
      expect(degreesQuery(layout, scope, [], 'mentions')).to.equal(null);
    });

    it('counts both directions of one edge collection through _from and _to, in scope, binding every caller value', () => {
      const hostileScope = { tenantId: HOSTILE[0]!, endUserId: HOSTILE[1]! };
      const query = degreesQuery(layout, hostileScope, [HOSTILE[4]!, 'entity:x'], 'mentions')!;
      expectPlaceholdersMatch(query);
      expectNotInText(query, HOSTILE);
      expect(query.query).to.match(/e\._from == n\.handle/).and.match(/e\._to == n\.handle/);
      expect(query.query.match(/e\.tenantId == @\w+ AND e\.endUserId == @\w+/g)).to.have.length(2);
      expect(Object.values(collectionVars(query))).to.deep.equal(['t_mentions']);
      const nodes = Object.values(query.bindVars).find(Array.isArray) as Array<{ id: string; handle: string }>;
      expect(nodes.map((n) => n.id)).to.deep.equal([HOSTILE[4], 'entity:x']);
      expect(nodes[1]!.handle).to.equal(nodeHandle(layout, hostileScope, 'entity:x'));
    });
  });

  describe('neighbours', () => {
    it('asks nothing at depth 0 or for no edge kinds (an empty edgeCollections would mean all)', () => {
      expect(neighboursQuery(layout, scope, 'memory:m1', 0)).to.equal(null);
      expect(neighboursQuery(layout, scope, 'memory:m1', 2, [])).to.equal(null);
    });

    it('traverses the named graph breadth first, each vertex once, restricted to the kinds asked', () => {
      const query = neighboursQuery(layout, scope, 'memory:m1', 3, ['mentions', 'next'])!;
      expectPlaceholdersMatch(query);
      expect(query.query).to.match(/^FOR v, e, p IN 1\.\.@\w+ ANY @\w+ GRAPH @\w+\n/);
      expect(query.query).to.include('order: "bfs", uniqueVertices: "global"');
      // PRUNE must come before OPTIONS (docs: traversal syntax).
      expect(query.query.indexOf('PRUNE')).to.be.lessThan(query.query.indexOf('OPTIONS'));
      const values = Object.values(query.bindVars);
      expect(values).to.deep.include(['t_mentions', 't_next']);
      expect(values).to.include(3).and.include('t_graph').and.include(nodeHandle(layout, scope, 'memory:m1'));
      expect(Object.keys(collectionVars(query)), 'the graph is a value, not a collection').to.deep.equal([]);
    });

    it('filters vertices and edges by scope and binds every caller value', () => {
      const hostileScope = { tenantId: HOSTILE[2]!, endUserId: HOSTILE[3]! };
      const query = neighboursQuery(layout, hostileScope, HOSTILE[4]!, 2)!;
      expectPlaceholdersMatch(query);
      expectNotInText(query, HOSTILE);
      expect(query.query).to.match(/e\.tenantId == @\w+ AND e\.endUserId == @\w+/);
      expect(Object.values(query.bindVars)).to.deep.include(['t_owns', 't_mentions', 't_contains', 't_next']);
    });
  });

  describe('erase', () => {
    it('removes every edge and node of the scope from every collection, once each, and counts both', () => {
      const query = eraseScopeQuery(layout, scope, sync);
      expectPlaceholdersMatch(query);
      expect(Object.values(modifications(query)).every((count) => count === 1)).to.equal(true);
      expect(Object.keys(modifications(query)).sort()).to.deep.equal(['t_contains', 't_documents', 't_entities', 't_memories', 't_mentions', 't_next', 't_other_nodes', 't_owns', 't_users']);
      expect(query.query.match(/FILTER \w\.tenantId == @\w+ AND \w\.endUserId == @\w+/g)).to.have.length(9);
      expect(query.query.trimEnd()).to.match(/RETURN \[LENGTH\(nodes0\)( \+ LENGTH\(nodes\d\))+, LENGTH\(edges0\)( \+ LENGTH\(edges\d\))+\]$/);
    });

    it('binds every caller value', () => {
      const query = eraseScopeQuery(layout, { tenantId: HOSTILE[0]!, endUserId: HOSTILE[1]! }, { waitForSync: false });
      expectPlaceholdersMatch(query);
      expectNotInText(query, HOSTILE);
    });
  });

  describe('delete', () => {
    it('removes nothing for no ids', () => {
      expect(deleteNodesQuery(layout, scope, [], sync)).to.equal(null);
    });

    it('removes the nodes and all their edges of every kind in one query, each collection modified once', () => {
      const query = deleteNodesQuery(layout, scope, ['memory:m1', 'memory:m2', 'entity:acme/alice/p'], sync)!;
      expectPlaceholdersMatch(query);
      expect(modifications(query)).to.deep.equal({ t_owns: 1, t_mentions: 1, t_contains: 1, t_next: 1, t_memories: 1, t_entities: 1 });
      expect(query.query).to.match(/e\._from IN @(\w+) OR e\._to IN @\1/);
      expect(query.query.trimEnd()).to.match(/RETURN LENGTH\(removed0\) \+ LENGTH\(removed1\)$/);
      const handles = Object.values(query.bindVars).find((value) => Array.isArray(value) && String(value[0]).includes('/'));
      expect(handles).to.deep.equal(['memory:m1', 'memory:m2', 'entity:acme/alice/p'].map((id) => nodeHandle(layout, scope, id)));
    });

    it('binds every caller value', () => {
      const query = deleteNodesQuery(layout, { tenantId: HOSTILE[0]!, endUserId: HOSTILE[1]! }, HOSTILE, { waitForSync: false })!;
      expectPlaceholdersMatch(query);
      expectNotInText(query, HOSTILE);
      expect(query.query).to.include('waitForSync: false');
    });
  });
});
