import { MemoryServiceError } from '@memory/platform';
import { graphIds, type EdgeKind, type GraphEdge, type GraphNode, type GraphStore, type Neighbour, type NodeKind, type Scope } from '@memory/ports';
import { nodeKey, prefixRange, storageError, type GraphStorage } from './storage.js';

const NODE_KINDS: readonly NodeKind[] = ['user', 'memory', 'entity', 'document'];
const EDGE_KINDS: readonly EdgeKind[] = ['owns', 'mentions', 'contains', 'next'];

/** GraphStore on LMDB: scoped node table and adjacency in both directions as ordered key ranges. */
export class EmbeddedGraphStore implements GraphStore {
  private closed = false;

  constructor(private readonly storage: GraphStorage) {}

  async upsert(nodes: GraphNode[], edges: GraphEdge[]): Promise<void> {
    this.checkOpen();
    nodes.forEach(checkNode);
    edges.forEach(checkEdge);
    if (nodes.length === 0 && edges.length === 0) return;
    await this.storage.durable(() => {
      for (const node of nodes) this.storage.nodes.put(nodeKey(node, node.id), node);
      for (const edge of edges) this.storage.putEdge(edge);
    });
  }

  async getNodes(scope: Scope, ids: string[]): Promise<GraphNode[]> {
    this.checkOpen();
    checkScope(scope);
    return this.read(() => unique(ids).flatMap((id) => this.storage.nodes.get(nodeKey(scope, id)) ?? []));
  }

  async neighbours(scope: Scope, from: string, options: { depth?: number; edgeKinds?: EdgeKind[] } = {}): Promise<Neighbour[]> {
    this.checkOpen();
    checkScope(scope);
    checkId(from);
    const depth = options.depth ?? 1;
    if (!Number.isInteger(depth) || depth < 0) invalid(`depth must be a whole number >= 0, got ${String(depth)}`);
    const kinds = options.edgeKinds && unique(options.edgeKinds);
    kinds?.forEach((kind) => EDGE_KINDS.includes(kind) || invalid(`unknown edge kind ${JSON.stringify(kind)}`));
    return this.read(() => {
      // Breadth first, so each node is reported once, at its shortest distance.
      const found: Neighbour[] = [];
      const seen = new Set([from]);
      let frontier = [from];
      for (let level = 1; level <= depth && frontier.length > 0; level++) {
        const next: string[] = [];
        for (const id of frontier) {
          for (const { edge, other } of this.storage.edgesOf(scope, id, kinds)) {
            if (seen.has(other)) continue;
            seen.add(other);
            const node = this.storage.nodes.get(nodeKey(scope, other));
            if (!node) continue; // an edge to a node not written (yet): nothing to show, nothing to walk through
            found.push({ node, edge, depth: level });
            next.push(other);
          }
        }
        frontier = next;
      }
      return found;
    });
  }

  /** Counted in the adjacency tables' key ranges: LMDB walks the keys natively and no node is read. */
  async degrees(scope: Scope, ids: string[], kind: EdgeKind): Promise<Map<string, number>> {
    this.checkOpen();
    checkScope(scope);
    const targets = unique(ids);
    targets.forEach(checkId);
    if (!EDGE_KINDS.includes(kind)) invalid(`unknown edge kind ${JSON.stringify(kind)}`);
    return this.read(() => new Map(targets.map((id) => [id, this.storage.degree(scope, id, kind)])));
  }

  /** Entity ids are derived from scope and key (graphIds.entity), so the node table is already the key index. */
  async findEntities(scope: Scope, keys: string[]): Promise<GraphNode[]> {
    this.checkOpen();
    checkScope(scope);
    return this.read(() =>
      unique(keys).flatMap((key) => {
        const node = this.storage.nodes.get(nodeKey(scope, graphIds.entity(scope, key)));
        return node?.kind === 'entity' ? [node] : [];
      }),
    );
  }

  async deleteNodes(scope: Scope, ids: string[]): Promise<number> {
    this.checkOpen();
    checkScope(scope);
    const targets = unique(ids);
    targets.forEach(checkId);
    if (targets.length === 0) return 0;
    await this.storage.markDeleting();
    return this.storage.durable(() => {
      let removed = 0;
      for (const id of targets) {
        // Edges go even when the node is missing, so a dangling edge can always be cleared.
        this.storage.removeEdgesOf(scope, id);
        const key = nodeKey(scope, id);
        if (this.storage.nodes.doesExist(key)) {
          this.storage.nodes.remove(key);
          removed++;
        }
      }
      return removed;
    });
  }

  async erase(scope: Scope): Promise<{ nodes: number; edges: number }> {
    this.checkOpen();
    checkScope(scope);
    const range = prefixRange([scope.tenantId, scope.endUserId]);
    await this.storage.markDeleting();
    return this.storage.durable(() => {
      let nodes = 0;
      let edges = 0;
      for (const key of this.storage.nodes.getKeys(range)) {
        this.storage.nodes.remove(key);
        nodes++;
      }
      for (const key of this.storage.outgoing.getKeys(range)) {
        this.storage.outgoing.remove(key);
        edges++;
      }
      for (const key of this.storage.incoming.getKeys(range)) this.storage.incoming.remove(key);
      return { nodes, edges };
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.storage.close();
  }

  private read<T>(body: () => T): T {
    try {
      return body();
    } catch (error) {
      if (error instanceof MemoryServiceError) throw error;
      throw storageError('read', error);
    }
  }

  private checkOpen(): void {
    if (this.closed) throw new MemoryServiceError('GRAPH.CLOSED', 'the graph store is closed');
  }
}

const unique = <T>(values: T[]): T[] => {
  if (!Array.isArray(values)) invalid('expected an array');
  return [...new Set(values)];
};

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

function invalid(message: string): never {
  throw new MemoryServiceError('GRAPH.INVALID_ARGUMENT', message);
}

function checkScope(scope: Scope): void {
  if (!nonEmpty(scope?.tenantId) || !nonEmpty(scope?.endUserId)) invalid('a scope needs a non-empty tenantId and endUserId');
}

function checkId(id: unknown): void {
  if (!nonEmpty(id)) invalid('node ids must be non-empty strings');
}

function checkNode(node: GraphNode): void {
  checkId(node?.id);
  checkScope(node);
  if (!NODE_KINDS.includes(node.kind)) invalid(`node ${node.id} has unknown kind ${JSON.stringify(node.kind)}`);
  if (typeof node.label !== 'string') invalid(`node ${node.id} needs a label`);
}

function checkEdge(edge: GraphEdge): void {
  checkId(edge?.from);
  checkId(edge.to);
  checkScope(edge);
  if (!EDGE_KINDS.includes(edge.kind)) invalid(`edge ${edge.from} -> ${edge.to} has unknown kind ${JSON.stringify(edge.kind)}`);
}
