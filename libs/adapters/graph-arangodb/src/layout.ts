import { createHash } from 'node:crypto';
import type { EdgeKind, GraphEdge, Scope } from '@memory/ports';

/** Where a node lives: one vertex collection per kind of graphIds, plus one for ids of any other shape. */
export type VertexSlot = 'users' | 'memories' | 'entities' | 'documents' | 'others';

export const VERTEX_SLOTS: readonly VertexSlot[] = ['users', 'memories', 'entities', 'documents', 'others'];
export const EDGE_KINDS: readonly EdgeKind[] = ['owns', 'mentions', 'contains', 'next'];

/** The names of one store's collections and graph, all sharing the configured prefix. */
export interface Layout {
  graph: string;
  vertices: Record<VertexSlot, string>;
  /** One edge collection per edge kind, so a kind filter is a collection restriction of the traversal. */
  edges: Record<EdgeKind, string>;
}

export function layoutFor(prefix: string): Layout {
  return {
    graph: `${prefix}graph`,
    vertices: { users: `${prefix}users`, memories: `${prefix}memories`, entities: `${prefix}entities`, documents: `${prefix}documents`, others: `${prefix}other_nodes` },
    edges: { owns: `${prefix}owns`, mentions: `${prefix}mentions`, contains: `${prefix}contains`, next: `${prefix}next` },
  };
}

// The prefixes graphIds gives each kind. An edge names its ends by id alone, so the collection of a node must
// follow from its id, never from its kind: an edge may be written before the node it points to.
const ID_PREFIXES: ReadonlyArray<[string, VertexSlot]> = [
  ['user:', 'users'],
  ['memory:', 'memories'],
  ['entity:', 'entities'],
  ['document:', 'documents'],
];

export function vertexSlotOf(id: string): VertexSlot {
  for (const [prefix, slot] of ID_PREFIXES) if (id.startsWith(prefix)) return slot;
  return 'others';
}

/**
 * A document _key from any strings. ArangoDB keys allow only [A-Za-z0-9] and _-:.@()+,=;$!*'% and at most 254
 * bytes, while our ids are free Unicode of any length (entity ids embed tenant, user and a key). So the key is
 * the SHA-256 of the JSON array of the parts, in base64url: 43 characters of [A-Za-z0-9_-], always (and no ':',
 * which the 3.12 docs reserve as a separator for Smart/EnterpriseGraphs).
 * JSON.stringify of an array of strings is injective (well-formed stringify escapes lone surrogates, so even
 * broken UTF-16 maps to distinct text), and SHA-256 collisions are not a practical concern, so distinct parts
 * give distinct keys. The readable values travel in the document itself.
 */
export function documentKey(parts: readonly string[]): string {
  return createHash('sha256').update(JSON.stringify(parts), 'utf8').digest('base64url');
}

/** Scope is part of the key: the same memory id under two end users is two documents (ids alone never isolate). */
export const nodeKey = (scope: Scope, id: string): string => documentKey(['node', scope.tenantId, scope.endUserId, id]);

export const edgeKey = (edge: GraphEdge): string => documentKey(['edge', edge.tenantId, edge.endUserId, edge.from, edge.kind, edge.to]);

export function vertexCollectionOf(layout: Layout, id: string): string {
  return layout.vertices[vertexSlotOf(id)];
}

/** The `_id` of a node: what edges' _from and _to hold and what a traversal starts from. */
export function nodeHandle(layout: Layout, scope: Scope, id: string): string {
  return `${vertexCollectionOf(layout, id)}/${nodeKey(scope, id)}`;
}
