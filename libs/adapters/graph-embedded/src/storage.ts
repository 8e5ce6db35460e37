import { open, type Database, type Key, type RootDatabase } from 'lmdb';
import { closeCompactingIfMarked, handleFailedCommits, lmdbError, lmdbWriteError, markForCompaction, MemoryServiceError } from '@memory/platform';
import type { EdgeKind, GraphEdge, GraphNode, Scope } from '@memory/ports';

export type NodeKey = [tenantId: string, endUserId: string, nodeId: string];
/** [tenant, user, near, kind, far]: `near` is `from` in the out table and `to` in the in table. */
export type AdjacencyKey = [tenantId: string, endUserId: string, near: string, kind: EdgeKind, far: string];

// ordered-binary separates array elements with a 0 byte that no string contains, so a trailing 0xff element sorts
// above every longer key sharing the prefix and below the next prefix: [..prefix, AFTER_ALL] ends a prefix range.
const AFTER_ALL = new Uint8Array([0xff]);

export const nodeKey = (scope: Scope, id: string): NodeKey => [scope.tenantId, scope.endUserId, id];

export function prefixRange(prefix: string[]): { start: Key; end: Key } {
  return { start: prefix, end: [...prefix, AFTER_ALL] };
}

/**
 * The on-disk layout, one LMDB environment:
 *   nodes  [tenant, user, nodeId]           -> GraphNode (msgpack, shared structures)
 *   out    [tenant, user, from, kind, to]   -> 1   (an edge is its key: writing it again rewrites the same key)
 *   in     [tenant, user, to, kind, from]   -> 1   (the same edge indexed from its other end)
 * So a node's neighbours in either direction, all kinds or one kind, are contiguous key ranges, and nothing of
 * another tenant or end user is in any range a scoped read touches.
 *
 * overlappingSync is off, so a commit is fsynced before its promise resolves; `durable()` also awaits `flushed`.
 */
export class GraphStorage {
  private constructor(
    /** Where the environment is: a failed write reads the free space of its disk. */
    private readonly path: string,
    /** Null when this process must not compact the file (see compactAfterDeletes). */
    private readonly dir: string | null,
    readonly env: RootDatabase,
    readonly nodes: Database<GraphNode, Key>,
    readonly outgoing: Database<number, Key>,
    readonly incoming: Database<number, Key>,
  ) {}

  static open(dir: string, compactAfterDeletes = true): GraphStorage {
    try {
      const env = handleFailedCommits(open({ path: dir, overlappingSync: false, maxDbs: 4 }));
      return new GraphStorage(
        dir,
        compactAfterDeletes ? dir : null,
        env,
        env.openDB('nodes', { sharedStructuresKey: Symbol.for('structures') }),
        env.openDB('out', {}),
        env.openDB('in', {}),
      );
    } catch (error) {
      throw storageError('open', error);
    }
  }

  /**
   * Before a delete commits: the file is compacted when the store closes (or, after a crash, when it next opens), so
   * nothing deleted stays in freed pages. Marked first, so no crash can fall between the commit and the mark.
   */
  async markDeleting(): Promise<void> {
    if (this.dir !== null) await markForCompaction(this.dir).catch((error: unknown) => Promise.reject(storageError('mark for compaction', error)));
  }

  /** Closes the environment, compacting it first if something was deleted. */
  async close(): Promise<void> {
    await closeCompactingIfMarked(this.env, this.dir, (error) => storageError('compaction', error));
  }

  /** Runs `body` in one write transaction and resolves once the transaction is on disk. */
  async durable<T>(body: () => T): Promise<T> {
    try {
      const result = await this.env.transaction(body);
      await this.env.flushed;
      return result;
    } catch (error) {
      if (error instanceof MemoryServiceError) throw error;
      throw await lmdbWriteError('GRAPH', 'graph store', 'write', error, this.path);
    }
  }

  putEdge(edge: GraphEdge): void {
    this.outgoing.put([edge.tenantId, edge.endUserId, edge.from, edge.kind, edge.to], 1);
    this.incoming.put([edge.tenantId, edge.endUserId, edge.to, edge.kind, edge.from], 1);
  }

  /** Edges touching `id`, outgoing then incoming, optionally of some kinds only. */
  *edgesOf(scope: Scope, id: string, kinds?: readonly EdgeKind[]): Generator<{ edge: GraphEdge; other: string }> {
    const prefixes = kinds ? kinds.map((kind) => [scope.tenantId, scope.endUserId, id, kind]) : [[scope.tenantId, scope.endUserId, id]];
    for (const [table, outgoing] of [[this.outgoing, true], [this.incoming, false]] as const) {
      for (const prefix of prefixes) {
        for (const key of table.getKeys(prefixRange(prefix))) {
          const [tenantId, endUserId, near, kind, far] = key as AdjacencyKey;
          const edge = outgoing ? { from: near, to: far, kind, tenantId, endUserId } : { from: far, to: near, kind, tenantId, endUserId };
          yield { edge, other: far };
        }
      }
    }
  }

  /** How many edges of `kind` touch `id`, counted in both tables. */
  degree(scope: Scope, id: string, kind: EdgeKind): number {
    const range = prefixRange([scope.tenantId, scope.endUserId, id, kind]);
    return this.outgoing.getKeysCount(range) + this.incoming.getKeysCount(range);
  }

  /** Removes every edge touching `id`, from both tables; call inside a write transaction. */
  removeEdgesOf(scope: Scope, id: string): void {
    const touching = [...this.edgesOf(scope, id)].map((e) => e.edge);
    for (const edge of touching) {
      this.outgoing.remove([edge.tenantId, edge.endUserId, edge.from, edge.kind, edge.to]);
      this.incoming.remove([edge.tenantId, edge.endUserId, edge.to, edge.kind, edge.from]);
    }
  }
}

export function storageError(operation: string, cause: unknown): MemoryServiceError {
  return lmdbError('GRAPH', 'graph store', operation, cause);
}
