import { aql, join, literal, type AqlQuery } from 'arangojs/aql';
import type { ArangoCollection } from 'arangojs/collections';
import type { EdgeKind, GraphEdge, GraphNode, NodeKind, Scope } from '@memory/ports';
import { edgeDocument, nodeDocument } from './documents.js';
import { EDGE_KINDS, nodeHandle, nodeKey, vertexCollectionOf, type Layout } from './layout.js';

/**
 * Every query of the store, built as data so it can be checked without a server. Values (ids, scopes, labels,
 * keys, the graph name) reach ArangoDB only as bind variables via the `aql` tag; collection names only as
 * collection bind variables (@@). `literal` is used for text this file itself decides (variable names, fixed
 * operation options), never for anything a caller passed in.
 *
 * AQL allows one modification per collection per query and no read of a collection after it was modified
 * (docs: "Data Queries > Restrictions"), so each query modifies every collection at most once, each in its own
 * subquery, and reads nothing afterwards.
 */

export interface WriteSettings {
  /** Resolve only once the write is synced to disk (the log offset is committed after the write resolves). */
  waitForSync: boolean;
}

/** The ArangoCollection interface is all the `aql` tag needs to bind a collection name as @@. */
const collection = (name: string): ArangoCollection => ({ isArangoCollection: true, name });

function groupBy<T>(items: Iterable<T>, groupOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groupOf(item);
    const members = groups.get(group);
    if (members) members.push(item);
    else groups.set(group, [item]);
  }
  return groups;
}

function modificationOptions(settings: WriteSettings, overwriteMode?: 'replace') {
  const parts = [...(overwriteMode ? [`overwriteMode: "${overwriteMode}"`] : []), `waitForSync: ${settings.waitForSync ? 'true' : 'false'}`];
  return literal(`OPTIONS { ${parts.join(', ')} }`);
}

/**
 * One query writing all nodes and edges of a call, so a memory's node, its owns edge and its mentions land
 * together (a single AQL query is one transaction on a single server). INSERT with overwriteMode "replace" is
 * the upsert by _key: the docs' Upsert/Repsert guide recommends it over UPSERT when the key is known, as it is a
 * primary-index operation per document, where UPSERT is a lookup then a write, not atomic, so two writers of one
 * memory could both take the INSERT branch and one fail on the unique constraint. Replace, not update: a node
 * written again with fewer fields loses the ones left out, as in the embedded store.
 */
export function upsertQuery(layout: Layout, nodes: GraphNode[], edges: GraphEdge[], settings: WriteSettings): AqlQuery | null {
  // Last write of a key wins within a call, as it would with separate writes; it also keeps one key out of
  // being inserted twice by one statement.
  const byCollection = new Map<string, Map<string, object>>();
  const put = ({ collection: name, document }: { collection: string; document: { _key: string } }) => {
    const documents = byCollection.get(name) ?? new Map<string, object>();
    documents.set(document._key, document);
    byCollection.set(name, documents);
  };
  nodes.forEach((node) => put(nodeDocument(layout, node)));
  edges.forEach((edge) => put(edgeDocument(layout, edge)));
  if (byCollection.size === 0) return null;

  const writes = [...byCollection].map(
    ([name, documents], i) =>
      aql`LET ${literal(`written${i}`)} = (FOR d IN ${[...documents.values()]} INSERT d INTO ${collection(name)} ${modificationOptions(settings, 'replace')})`,
  );
  return aql`${join(writes, '\n')}\nRETURN true`;
}

/** Nodes of the scope among `ids`, optionally of one kind; each collection is read through its primary index. */
export function nodesQuery(layout: Layout, scope: Scope, ids: string[], onlyKind?: NodeKind): AqlQuery | null {
  if (ids.length === 0) return null;
  const reads = [...groupBy(ids, (id) => vertexCollectionOf(layout, id))].map(([name, members], i) => {
    const keys = members.map((id) => nodeKey(scope, id));
    const kindFilter = onlyKind === undefined ? aql`` : aql`AND d.kind == ${onlyKind}`;
    return aql`LET ${literal(`found${i}`)} = (
  FOR d IN ${collection(name)}
    FILTER d._key IN ${keys} AND d.tenantId == ${scope.tenantId} AND d.endUserId == ${scope.endUserId} ${kindFilter}
    RETURN d)`;
  });
  const found = join(
    reads.map((_, i) => literal(`found${i}`)),
    ', ',
  );
  return aql`${join(reads, '\n')}\nFOR d IN FLATTEN([${found}]) RETURN d`;
}

/**
 * Breadth-first over the named graph, each vertex once (uniqueVertices "global" needs order "bfs"; the first
 * visit is then at the shortest depth). The kind filter is the traversal's edgeCollections restriction; an
 * empty restriction means "all" to ArangoDB, so no kinds (and depth 0) are answered without a query.
 * PRUNE stops at a missing vertex (an edge written before its node: v is null) and at anything outside the
 * scope, so nothing is walked through that the result would not show. A start vertex that does not exist gives
 * an empty result (docs: "If the specified document does not exist, the result is empty").
 */
export function neighboursQuery(layout: Layout, scope: Scope, from: string, depth: number, kinds: readonly EdgeKind[] = EDGE_KINDS): AqlQuery | null {
  if (depth === 0 || kinds.length === 0) return null;
  const start = nodeHandle(layout, scope, from);
  const { tenantId, endUserId } = scope;
  return aql`FOR v, e, p IN 1..${depth} ANY ${start} GRAPH ${layout.graph}
  PRUNE v == null OR v.tenantId != ${tenantId} OR v.endUserId != ${endUserId}
  OPTIONS { order: "bfs", uniqueVertices: "global", edgeCollections: ${kinds.map((kind) => layout.edges[kind])} }
  FILTER v != null AND v._id != ${start}
  FILTER v.tenantId == ${tenantId} AND v.endUserId == ${endUserId} AND e.tenantId == ${tenantId} AND e.endUserId == ${endUserId}
  RETURN { node: v, edge: e, depth: LENGTH(p.edges) }`;
}

/**
 * Each node's number of `kind` edges of the scope, either direction: `{ id, degree }` rows, counted through the edge
 * index on _from and on _to (no vertex is read).
 */
export function degreesQuery(layout: Layout, scope: Scope, ids: string[], kind: EdgeKind): AqlQuery | null {
  if (ids.length === 0) return null;
  const { tenantId, endUserId } = scope;
  const edges = collection(layout.edges[kind]);
  const nodes = ids.map((id) => ({ id, handle: nodeHandle(layout, scope, id) }));
  return aql`FOR n IN ${nodes}
  LET outgoing = COUNT(FOR e IN ${edges} FILTER e._from == n.handle AND e.tenantId == ${tenantId} AND e.endUserId == ${endUserId} RETURN 1)
  LET incoming = COUNT(FOR e IN ${edges} FILTER e._to == n.handle AND e.tenantId == ${tenantId} AND e.endUserId == ${endUserId} RETURN 1)
  RETURN { id: n.id, degree: outgoing + incoming }`;
}

/**
 * Removes the nodes of the scope among `ids` and every edge of the scope touching them, in either direction and
 * of any kind, in one query; returns (as its one result) how many nodes were removed. Edges go even when the
 * node itself is missing, so a dangling edge can always be cleared.
 */
/** Every edge and node of one end user, from every collection; returns [nodes removed, edges removed]. */
export function eraseScopeQuery(layout: Layout, scope: Scope, settings: WriteSettings): AqlQuery {
  const { tenantId, endUserId } = scope;
  const edgeRemovals = EDGE_KINDS.map((kind, i) => {
    const edges = collection(layout.edges[kind]);
    return aql`LET ${literal(`edges${i}`)} = (
  FOR e IN ${edges}
    FILTER e.tenantId == ${tenantId} AND e.endUserId == ${endUserId}
    REMOVE e IN ${edges} ${modificationOptions(settings)}
    RETURN 1)`;
  });
  const nodeRemovals = Object.values(layout.vertices).map((name, i) => {
    const vertices = collection(name);
    return aql`LET ${literal(`nodes${i}`)} = (
  FOR d IN ${vertices}
    FILTER d.tenantId == ${tenantId} AND d.endUserId == ${endUserId}
    REMOVE d IN ${vertices} ${modificationOptions(settings)}
    RETURN 1)`;
  });
  const sum = (prefix: string, count: number) => literal(Array.from({ length: count }, (_, i) => `LENGTH(${prefix}${i})`).join(' + '));
  return aql`${join([...edgeRemovals, ...nodeRemovals], '\n')}\nRETURN [${sum('nodes', nodeRemovals.length)}, ${sum('edges', edgeRemovals.length)}]`;
}

export function deleteNodesQuery(layout: Layout, scope: Scope, ids: string[], settings: WriteSettings): AqlQuery | null {
  if (ids.length === 0) return null;
  const { tenantId, endUserId } = scope;
  const handles = ids.map((id) => nodeHandle(layout, scope, id));
  const edgeRemovals = EDGE_KINDS.map((kind, i) => {
    const edges = collection(layout.edges[kind]);
    // OR of _from and _to: the optimizer may use the edge index for each branch (docs: Index Utilization).
    return aql`LET ${literal(`unlinked${i}`)} = (
  FOR e IN ${edges}
    FILTER e._from IN ${handles} OR e._to IN ${handles}
    FILTER e.tenantId == ${tenantId} AND e.endUserId == ${endUserId}
    REMOVE e IN ${edges} ${modificationOptions(settings)})`;
  });
  const nodeGroups = [...groupBy(ids, (id) => vertexCollectionOf(layout, id))];
  const nodeRemovals = nodeGroups.map(([name, members], i) => {
    const vertices = collection(name);
    const keys = members.map((id) => nodeKey(scope, id));
    return aql`LET ${literal(`removed${i}`)} = (
  FOR d IN ${vertices}
    FILTER d._key IN ${keys} AND d.tenantId == ${tenantId} AND d.endUserId == ${endUserId}
    REMOVE d IN ${vertices} ${modificationOptions(settings)}
    RETURN 1)`;
  });
  const count = join(
    nodeGroups.map((_, i) => literal(`LENGTH(removed${i})`)),
    ' + ',
  );
  return aql`${join([...edgeRemovals, ...nodeRemovals], '\n')}\nRETURN ${count}`;
}
