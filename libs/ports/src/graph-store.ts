import type { Scope } from './memory.js';

export type NodeKind = 'user' | 'memory' | 'entity' | 'document';

export interface GraphNode {
  /** Derived id, stable across replays (see graphIds in @memory/ports). */
  id: string;
  kind: NodeKind;
  tenantId: string;
  endUserId: string;
  /** Display label: the entity's name, the memory's first words, the user id. */
  label: string;
  /** For entities: person, place, organization, title, other. */
  entityType?: string;
}

/** owns: user -> memory or document; mentions: memory -> entity; contains: document -> page memory; next: page -> next page. */
export type EdgeKind = 'owns' | 'mentions' | 'contains' | 'next';

export interface GraphEdge {
  from: string;
  to: string;
  kind: EdgeKind;
  tenantId: string;
  endUserId: string;
}

export interface Neighbour {
  node: GraphNode;
  edge: GraphEdge;
  depth: number;
}

/** The memory graph (ArangoDB in production): user, memory, entity and document nodes; owns, mentions, contains and next edges. */
export interface GraphStore {
  /** Idempotent: nodes and edges are keyed by their ids, writing them again changes nothing. */
  upsert(nodes: GraphNode[], edges: GraphEdge[]): Promise<void>;
  getNodes(scope: Scope, ids: string[]): Promise<GraphNode[]>;
  /** Nodes reachable from `from` within `depth` hops, either direction, optionally only through some edge kinds. */
  neighbours(scope: Scope, from: string, options?: { depth?: number; edgeKinds?: EdgeKind[] }): Promise<Neighbour[]>;
  /**
   * How many edges of `kind` touch each of these nodes, either direction (their degree), without reading the edges'
   * far ends: how widely an entity is mentioned decides whether its memories are worth listing. Every id asked for
   * is in the map (0 for a node without such edges or not there at all).
   */
  degrees(scope: Scope, ids: string[], kind: EdgeKind): Promise<Map<string, number>>;
  /** Entity nodes of the end user whose key is one of these. */
  findEntities(scope: Scope, keys: string[]): Promise<GraphNode[]>;
  /** Removes these nodes and every edge touching them; returns how many nodes existed. */
  deleteNodes(scope: Scope, ids: string[]): Promise<number>;
  /** Removes every node and edge of an end user; returns the counts. */
  erase(scope: Scope): Promise<{ nodes: number; edges: number }>;
  close(): Promise<void>;
}

/** Node ids: derived from the scope and the natural key, never drawn. */
export const graphIds = {
  user: (s: Scope) => `user:${s.tenantId}/${s.endUserId}`,
  memory: (memoryId: string) => `memory:${memoryId}`,
  entity: (s: Scope, key: string) => `entity:${s.tenantId}/${s.endUserId}/${key}`,
  document: (documentId: string) => `document:${documentId}`,
};
