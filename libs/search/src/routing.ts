import type { CentroidMode } from './centroid-mode.js';
import type { QueryAnalysis } from './query-analysis.js';
import type { SearchMode, Strategy } from './request.js';

/** Fusion weight of each list in automatic routing (see fuse); documented in the README's search section. */
export const ROUTING_WEIGHTS = {
  dense: 1,
  bm25: 1,
  entity_anchor: 0.5,
  temporal_range: 0.6,
  direct_lookup: 3,
} as const;

export type Weights = { [K in keyof typeof ROUTING_WEIGHTS]: number };

export interface SearchPlan {
  strategies: Strategy[];
  weights: Weights;
  /** Forces the centroid mode instead of measuring it. */
  centroidMode?: CentroidMode;
  /** The semantic path keeps to the query's time range (falling back to no filter when that leaves too little). */
  filterSemanticByTime: boolean;
  /** Hybrid mode: memories whose sentiment matches the query's are lifted. */
  matchSentiment: boolean;
}

/**
 * Which strategies answer a query. A forced strategy runs alone. Otherwise every signal found adds its strategy:
 * identifiers → direct_lookup, a time expression → temporal_range (and a time filter on the semantic path),
 * spans that may name entities → entity_anchor (the graph decides whether they do); the semantic path
 * (centroid_aware, kNN + BM25) always runs, unless the query is nothing but identifiers.
 */
export function planSearch(analysis: QueryAnalysis, strategy: Strategy | null, mode: SearchMode | null = null): SearchPlan {
  const weights: Weights = { ...ROUTING_WEIGHTS };
  if (strategy) return { strategies: [strategy], weights, filterSemanticByTime: false, matchSentiment: false };
  const automatic: Strategy[] = [];
  if (analysis.identifiers.length > 0) automatic.push('direct_lookup');
  if (analysis.timeRange || analysis.relativeToEvent) automatic.push('temporal_range');
  if (analysis.entityKeys.length > 0) automatic.push('entity_anchor');
  if (!analysis.identifiersOnly) automatic.push('centroid_aware');
  const plan: SearchPlan = { strategies: automatic, weights, filterSemanticByTime: analysis.timeRange !== null, matchSentiment: false };
  switch (mode) {
    case 'factual':
      // Exact facts: the words count more than the meaning, dated records are searched by their dates, and the
      // answer stays narrow.
      return { ...plan, centroidMode: 'SPECIFIC', weights: { ...weights, bm25: 1.5, temporal_range: 0.8 } };
    case 'conceptual':
      // Themes and practices: meaning over wording, broad and diversified, no anchoring on one name or date.
      return { strategies: ['centroid_aware'], weights: { ...weights, bm25: 0.3 }, centroidMode: 'META', filterSemanticByTime: false, matchSentiment: false };
    case 'hybrid':
      return { ...plan, matchSentiment: true };
    default:
      return plan;
  }
}
