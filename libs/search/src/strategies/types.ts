import type { CentroidStore, Embedder, GraphStore, Scope, VectorStore } from '@memory/ports';
import type { RankedList } from '../fusion.js';

export interface SearchDeps {
  vectors: VectorStore;
  embedder: Embedder;
  /** Without it every query is SPECIFIC (no user centroid to measure against). */
  centroids?: CentroidStore;
  /** Without it entity_anchor finds nothing. */
  graph?: GraphStore;
  /** Search may read the clock (for recency and "last week"); pipeline stages never do. */
  now?: () => number;
}

/** What one strategy found: ranked lists for fusion, the node each memory was reached through, and why. */
export interface StrategyOutcome {
  lists: RankedList[];
  anchors: Map<string, string>;
  notes: Record<string, unknown>;
  /** Per memory, what this strategy adds to options.explain beyond its lists' ranks and scores. */
  details?: Map<string, Record<string, unknown>>;
}

export interface StrategyContext {
  deps: SearchDeps;
  scope: Scope;
  /** How many results the caller wants; strategies fetch more to leave fusion a choice. */
  limit: number;
}
