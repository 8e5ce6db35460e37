import { MemoryServiceError } from '@memory/platform';
import type { EdgeKind, GraphEdge, GraphNode, NodeKind, Scope } from '@memory/ports';
import { EDGE_KINDS } from './layout.js';

/** Input checks, made before any request, with the codes every GraphStore adapter uses. */

const NODE_KINDS: readonly NodeKind[] = ['user', 'memory', 'entity', 'document'];

export function invalid(message: string): never {
  throw new MemoryServiceError('GRAPH.INVALID_ARGUMENT', message);
}

const isNonEmptyString = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** Duplicates removed, first occurrence kept (results follow the order asked). */
export function distinct<T>(values: T[]): T[] {
  if (!Array.isArray(values)) invalid('expected an array');
  return [...new Set(values)];
}

export function checkScope(scope: Scope): void {
  if (!isNonEmptyString(scope?.tenantId) || !isNonEmptyString(scope?.endUserId)) invalid('a scope needs a non-empty tenantId and endUserId');
}

export function checkId(id: unknown): void {
  if (!isNonEmptyString(id)) invalid('node ids must be non-empty strings');
}

export function checkNode(node: GraphNode): void {
  checkId(node?.id);
  checkScope(node);
  if (!NODE_KINDS.includes(node.kind)) invalid(`node ${node.id} has unknown kind ${JSON.stringify(node.kind)}`);
  if (typeof node.label !== 'string') invalid(`node ${node.id} needs a label`);
}

export function checkEdge(edge: GraphEdge): void {
  checkId(edge?.from);
  checkId(edge.to);
  checkScope(edge);
  if (!EDGE_KINDS.includes(edge.kind)) invalid(`edge ${edge.from} -> ${edge.to} has unknown kind ${JSON.stringify(edge.kind)}`);
}

export function checkDepth(depth: unknown): number {
  if (typeof depth !== 'number' || !Number.isInteger(depth) || depth < 0) invalid(`depth must be a whole number >= 0, got ${String(depth)}`);
  return depth;
}

export function checkEdgeKinds(kinds: EdgeKind[] | undefined): readonly EdgeKind[] {
  if (kinds === undefined) return EDGE_KINDS;
  const chosen = distinct(kinds);
  for (const kind of chosen) if (!EDGE_KINDS.includes(kind)) invalid(`unknown edge kind ${JSON.stringify(kind)}`);
  return chosen;
}
