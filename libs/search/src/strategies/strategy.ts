import type { Centroid, CentroidStore, Embedder, GraphStore, VectorStore } from '@memory/ports';
import type { SearchConfig } from '../config.js';
import type { RankedList } from '../fusion.js';
import type { QueryAnalysis } from '../query-analysis.js';

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
export interface StrategyResult {
  lists: RankedList[];
  /** The graph node each memory was reached through (a result's searchedWithNode). */
  anchors: Map<string, string>;
  /** What the strategy decided, shown in the response's routing. */
  notes: Record<string, unknown>;
  /** Per memory, what this strategy adds to options.explain beyond its lists' ranks and scores. */
  details?: Map<string, Record<string, unknown>>;
}

/** What a text strategy reads: the analysed query, the validated config, and the query's embedding on demand. */
export interface TextStrategyInput {
  deps: SearchDeps;
  config: SearchConfig;
  analysis: QueryAnalysis;
  /** Run alone because the request forced it, not because the query signalled it. */
  forced: boolean;
  /** The query embedded once for every strategy that needs meaning; strategies that do not never call the model. */
  queryVector(): Promise<Float32Array>;
  /** The end user's centroid (null when none has been calibrated yet), read once, when first asked. */
  userCentroid(): Promise<Centroid | null>;
  /** How many memories the end user has (idf needs it); read once, when first asked. */
  memoryCount(): Promise<number>;
}

/** A named way of finding candidates: one interface for every strategy, text or image. */
export interface Strategy<Input = TextStrategyInput> {
  name: string;
  run(input: Input): Promise<StrategyResult>;
}

export const nothingFound = (notes: Record<string, unknown>): StrategyResult => ({ lists: [], anchors: new Map(), notes });
