import type { Removal } from '@memory/contracts';
import { graphIds, type GraphStore, type Scope, type VectorStore } from '@memory/ports';

export interface MemoryStores {
  vectors: VectorStore;
  /** Image memories' visual descriptors, under the same ids. */
  visualVectors: VectorStore;
  graph: GraphStore;
}

/**
 * Removes memories from the stores that hold them as documents and nodes: the vector store (with its lexical index
 * entries), the visual store, and the graph: each memory node with its edges, then the entity nodes no memory
 * mentions any more and the document nodes with no page left, so no traversal reaches what was forgotten.
 * Idempotent: removing again counts zeros. Returns how many memories the vector stores held, and what went where.
 */
export async function removeMemories(scope: Scope, memoryIds: string[], stores: MemoryStores): Promise<{ memories: number; removed: Removal[] }> {
  const ids = [...new Set(memoryIds)];
  const memoryNodes = ids.map(graphIds.memory);
  const touching = await Promise.all(memoryNodes.map((node) => stores.graph.neighbours(scope, node, { depth: 1 })));
  const edges = new Set<string>();
  const entities = new Set<string>();
  const documents = new Set<string>();
  for (const neighbours of touching) {
    for (const { node, edge } of neighbours) {
      edges.add(`${edge.from}|${edge.kind}|${edge.to}`);
      if (node.kind === 'entity') entities.add(node.id);
      if (node.kind === 'document') documents.add(node.id);
    }
  }
  const [vectors, visual, graphNodes] = await Promise.all([
    stores.vectors.delete(scope, ids),
    stores.visualVectors.delete(scope, ids),
    stores.graph.deleteNodes(scope, memoryNodes),
  ]);
  const [orphanEntities, emptyDocuments] = await Promise.all([
    deleteOrphans(scope, [...entities], 'mentions', stores.graph),
    deleteOrphans(scope, [...documents], 'contains', stores.graph),
  ]);
  return {
    memories: vectors,
    removed: [
      { store: 'vectors', what: 'memories, with their vectors and lexical index entries', count: vectors },
      { store: 'visual-vectors', what: 'image descriptors', count: visual },
      { store: 'graph', what: 'memory nodes', count: graphNodes },
      { store: 'graph', what: 'edges', count: edges.size },
      { store: 'graph', what: 'entity nodes no memory mentions any more', count: orphanEntities },
      { store: 'graph', what: 'document nodes with no page left', count: emptyDocuments },
    ],
  };
}

/**
 * Which of these memories any of the stores holds, as a memory, an image descriptor or a memory node: a writer
 * stopped between its writes (the dual-writer's are concurrent) can leave one in any of them. Reads only.
 */
export async function memoriesHeld(scope: Scope, memoryIds: string[], stores: MemoryStores): Promise<string[]> {
  const ids = [...new Set(memoryIds)];
  if (ids.length === 0) return [];
  const [memories, visual, nodes] = await Promise.all([
    stores.vectors.getWithoutVectors(scope, ids),
    stores.visualVectors.getWithoutVectors(scope, ids),
    stores.graph.getNodes(scope, ids.map(graphIds.memory)),
  ]);
  const held = new Set([...memories.map((memory) => memory.id), ...visual.map((memory) => memory.id)]);
  const nodeIds = new Set(nodes.map((node) => node.id));
  return ids.filter((id) => held.has(id) || nodeIds.has(graphIds.memory(id)));
}

/**
 * Deletes those of the candidate nodes that no `kind` edge touches any more (entities no memory mentions, documents
 * with no page): what removing or rewriting a memory leaves behind. Returns how many were deleted.
 */
export async function deleteOrphans(scope: Scope, candidates: string[], kind: 'mentions' | 'contains', graph: GraphStore): Promise<number> {
  if (candidates.length === 0) return 0;
  const degrees = await graph.degrees(scope, candidates, kind);
  return graph.deleteNodes(scope, [...degrees].filter(([, degree]) => degree === 0).map(([id]) => id));
}
