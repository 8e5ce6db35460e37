import { MemoryServiceError } from '@memory/platform';
import type { EdgeKind, GraphEdge, GraphNode, NodeKind } from '@memory/ports';
import { edgeKey, nodeHandle, nodeKey, vertexCollectionOf, type Layout } from './layout.js';

/** A node as stored: the port's fields as given, plus the derived key. */
export interface NodeDocument {
  _key: string;
  id: string;
  kind: NodeKind;
  tenantId: string;
  endUserId: string;
  label: string;
  entityType?: string;
}

/** An edge as stored: the ids as given (from, to) next to the handles ArangoDB traverses (_from, _to). */
export interface EdgeDocument {
  _key: string;
  _from: string;
  _to: string;
  from: string;
  to: string;
  kind: EdgeKind;
  tenantId: string;
  endUserId: string;
}

export function nodeDocument(layout: Layout, node: GraphNode): { collection: string; document: NodeDocument } {
  const document: NodeDocument = {
    _key: nodeKey(node, node.id),
    id: node.id,
    kind: node.kind,
    tenantId: node.tenantId,
    endUserId: node.endUserId,
    label: node.label,
  };
  if (typeof node.entityType === 'string') document.entityType = node.entityType;
  return { collection: vertexCollectionOf(layout, node.id), document };
}

export function edgeDocument(layout: Layout, edge: GraphEdge): { collection: string; document: EdgeDocument } {
  return {
    collection: layout.edges[edge.kind],
    document: {
      _key: edgeKey(edge),
      _from: nodeHandle(layout, edge, edge.from),
      _to: nodeHandle(layout, edge, edge.to),
      from: edge.from,
      to: edge.to,
      kind: edge.kind,
      tenantId: edge.tenantId,
      endUserId: edge.endUserId,
    },
  };
}

type Stored = Record<string, unknown>;

function text(doc: Stored, field: string): string {
  const value = doc[field];
  if (typeof value !== 'string') {
    throw new MemoryServiceError('GRAPH.CORRUPT', `stored graph document ${String(doc['_id'] ?? doc['_key'])} has no string ${field}`);
  }
  return value;
}

function stored(value: unknown): Stored {
  if (value === null || typeof value !== 'object') throw new MemoryServiceError('GRAPH.CORRUPT', 'expected a stored graph document');
  return value as Stored;
}

/** Back to the port's shape: system attributes (_key, _id, _rev) and anything else stored are left behind. */
export function nodeFromDocument(value: unknown): GraphNode {
  const doc = stored(value);
  const node: GraphNode = {
    id: text(doc, 'id'),
    kind: text(doc, 'kind') as NodeKind,
    tenantId: text(doc, 'tenantId'),
    endUserId: text(doc, 'endUserId'),
    label: text(doc, 'label'),
  };
  if (typeof doc['entityType'] === 'string') node.entityType = doc['entityType'];
  return node;
}

export function edgeFromDocument(value: unknown): GraphEdge {
  const doc = stored(value);
  return {
    from: text(doc, 'from'),
    to: text(doc, 'to'),
    kind: text(doc, 'kind') as EdgeKind,
    tenantId: text(doc, 'tenantId'),
    endUserId: text(doc, 'endUserId'),
  };
}
