import type { Database } from 'arangojs';
import type { AqlQuery } from 'arangojs/aql';
import type { QueryOptions } from 'arangojs/queries';
import { MemoryServiceError } from '@memory/platform';
import { graphIds, type EdgeKind, type GraphEdge, type GraphNode, type GraphStore, type Neighbour, type Scope } from '@memory/ports';
import { edgeFromDocument, nodeFromDocument } from './documents.js';
import { graphError } from './errors.js';
import type { Layout } from './layout.js';
import { degreesQuery, deleteNodesQuery, eraseScopeQuery, neighboursQuery, nodesQuery, upsertQuery } from './queries.js';
import { checkDepth, checkEdge, checkEdgeKinds, checkId, checkNode, checkScope, distinct } from './validation.js';

export interface ArangoGraphStoreSettings {
  waitForSync: boolean;
  queryTimeoutMs: number;
  conflictRetries: number;
}

/** GraphStore on an ArangoDB named graph; see README.md for the data model. Open it with openArangoGraphStore. */
export class ArangoGraphStore implements GraphStore {
  private closed = false;
  private readonly running = new Set<Promise<unknown>>();

  constructor(
    private readonly db: Database,
    private readonly layout: Layout,
    private readonly settings: ArangoGraphStoreSettings,
  ) {}

  async upsert(nodes: GraphNode[], edges: GraphEdge[]): Promise<void> {
    this.checkOpen();
    distinct(nodes).forEach(checkNode);
    distinct(edges).forEach(checkEdge);
    const query = upsertQuery(this.layout, nodes, edges, this.settings);
    if (query) await this.run('upsert', query, true);
  }

  async getNodes(scope: Scope, ids: string[]): Promise<GraphNode[]> {
    this.checkOpen();
    checkScope(scope);
    const wanted = distinct(ids).filter((id) => typeof id === 'string' && id !== '');
    return this.nodesInOrder(scope, wanted, nodesQuery(this.layout, scope, wanted), 'getNodes');
  }

  async neighbours(scope: Scope, from: string, options: { depth?: number; edgeKinds?: EdgeKind[] } = {}): Promise<Neighbour[]> {
    this.checkOpen();
    checkScope(scope);
    checkId(from);
    const depth = checkDepth(options.depth ?? 1);
    const kinds = checkEdgeKinds(options.edgeKinds);
    const query = neighboursQuery(this.layout, scope, from, depth, kinds);
    if (!query) return [];
    // An edge to a node not written yet yields a "document not found" warning; it must not fail the query even
    // where the server runs with --query.fail-on-warning.
    const rows = await this.run<{ node: unknown; edge: unknown; depth: number }>('neighbours', query, false, { failOnWarning: false });
    return rows.map((row) => ({ node: nodeFromDocument(row.node), edge: edgeFromDocument(row.edge), depth: row.depth }));
  }

  async degrees(scope: Scope, ids: string[], kind: EdgeKind): Promise<Map<string, number>> {
    this.checkOpen();
    checkScope(scope);
    const targets = distinct(ids);
    targets.forEach(checkId);
    const [checkedKind] = checkEdgeKinds([kind]);
    const degrees = new Map(targets.map((id) => [id, 0]));
    const query = degreesQuery(this.layout, scope, targets, checkedKind!);
    if (!query) return degrees;
    for (const row of await this.run<{ id: string; degree: number }>('degrees', query, false)) degrees.set(row.id, row.degree);
    return degrees;
  }

  /** Entity ids are derived from scope and key (graphIds.entity), so this is a lookup by key, no index scan. */
  async findEntities(scope: Scope, keys: string[]): Promise<GraphNode[]> {
    this.checkOpen();
    checkScope(scope);
    const ids = distinct(keys).map((key) => graphIds.entity(scope, key));
    return this.nodesInOrder(scope, ids, nodesQuery(this.layout, scope, ids, 'entity'), 'findEntities');
  }

  async deleteNodes(scope: Scope, ids: string[]): Promise<number> {
    this.checkOpen();
    checkScope(scope);
    const targets = distinct(ids);
    targets.forEach(checkId);
    const query = deleteNodesQuery(this.layout, scope, targets, this.settings);
    if (!query) return 0;
    const [removed] = await this.run<number>('deleteNodes', query, true);
    return removed ?? 0;
  }

  async erase(scope: Scope): Promise<{ nodes: number; edges: number }> {
    this.checkOpen();
    checkScope(scope);
    const [counts] = await this.run<[number, number]>('erase', eraseScopeQuery(this.layout, scope, this.settings), true);
    return { nodes: counts?.[0] ?? 0, edges: counts?.[1] ?? 0 };
  }

  /** Lets the calls under way finish, then closes the connections. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.allSettled([...this.running]);
    this.db.close();
  }

  private async nodesInOrder(scope: Scope, ids: string[], query: AqlQuery | null, operation: string): Promise<GraphNode[]> {
    if (!query) return [];
    const byId = new Map((await this.run(operation, query, false)).map((doc) => {
      const node = nodeFromDocument(doc);
      return [node.id, node] as const;
    }));
    // The query already filters by scope (the key is derived from it); the check here keeps a foreign node out
    // even if a key were ever shared.
    return ids.flatMap((id) => {
      const node = byId.get(id);
      return node && node.tenantId === scope.tenantId && node.endUserId === scope.endUserId ? [node] : [];
    });
  }

  private run<T>(operation: string, query: AqlQuery, write: boolean, extra: QueryOptions = {}): Promise<T[]> {
    const task = (async () => {
      try {
        const cursor = await this.db.query<T>(query, {
          ...extra,
          timeout: this.settings.queryTimeoutMs,
          // The driver sends the whole query again on a write-write conflict (1200); the writes are idempotent.
          ...(write ? { retryOnConflict: this.settings.conflictRetries } : {}),
        });
        return await cursor.all();
      } catch (error) {
        throw graphError(operation, error);
      }
    })();
    this.running.add(task);
    void task.finally(() => this.running.delete(task)).catch(() => undefined);
    return task;
  }

  private checkOpen(): void {
    if (this.closed) throw new MemoryServiceError('GRAPH.CLOSED', 'the graph store is closed');
  }
}
