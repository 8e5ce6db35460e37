import type { CentroidMode } from './centroid-mode.js';
import type { FusionMethod } from './fusion.js';
import type { QueryAnalysis } from './query-analysis.js';
import type { RerankerName } from './rerankers/names.js';
import type { StrategyName } from './strategies/names.js';

/**
 * What in a query makes a strategy worth running: always; identifiers (codes, ids, e-mails); a time expression or a
 * time relative to an event; spans that may name the user's entities (the graph decides whether they do); meaning
 * (anything but a query of identifiers alone).
 */
export type Signal = 'always' | 'identifiers' | 'time' | 'entities' | 'meaning';

/** Fusion weight of each ranked list, by the list's name (see fuse). */
export interface ListWeights {
  dense: number;
  bm25: number;
  entity_anchor: number;
  temporal_range: number;
  direct_lookup: number;
}

/**
 * How many candidates each list asks its store for. Lists are never cut short for a small limit: a memory's place in
 * each list is part of its fused score, so a query ranks its first memories alike whatever limit it asks for.
 */
export interface CandidateDepths {
  /** kNN and BM25 of the semantic path: max(limit × perLimit, floor); META casts wider, to diversify from. */
  semantic: Record<CentroidMode, { perLimit: number; floor: number }>;
  /** BM25 hits the semantic path reads at least: enough to know the lexical score of the best hits' neighbours. */
  lexical: number;
  /** temporal_range and entity_anchor: max(limit × perLimit, floor). */
  listed: { perLimit: number; floor: number };
  /** direct_lookup: max(limit, floor). */
  identifiers: { floor: number };
  /** Fused candidates the rerankers see: limit × perLimit + extra, enough for any reranker's factor to lift one to the top. */
  rerank: { perLimit: number; extra: number };
}

/** A named way to search: a constant, chosen by the request's mode or forced strategy (see searchConfig). */
export interface Recipe {
  name: RecipeName;
  /** Each strategy that may run, and the signal it needs. */
  strategies: ReadonlyArray<{ strategy: StrategyName; when: Signal }>;
  weights: ListWeights;
  depths: CandidateDepths;
  semantic: {
    /** Forces the centroid mode instead of measuring the query against the user's centroid. */
    centroidMode: CentroidMode | null;
    /** The semantic path keeps to the query's time range, when it has one (and also runs unfiltered at half weight when that leaves too little). */
    timeFilter: boolean;
  };
  fusion: FusionMethod;
  /** Applied in this order after fusion, each to the previous one's output. */
  rerankers: readonly RerankerName[];
}

export const RECIPE_NAMES = ['automatic', 'factual', 'conceptual', 'hybrid', 'forced'] as const;
export type RecipeName = (typeof RECIPE_NAMES)[number];

const DEPTHS: CandidateDepths = {
  semantic: { SPECIFIC: { perLimit: 6, floor: 120 }, META: { perLimit: 10, floor: 120 } },
  lexical: 200,
  listed: { perLimit: 4, floor: 50 },
  identifiers: { floor: 20 },
  rerank: { perLimit: 2, extra: 20 },
};

/** Every signal found adds its strategy; the semantic path runs unless the query is nothing but identifiers. */
const AUTOMATIC: Recipe = {
  name: 'automatic',
  strategies: [
    { strategy: 'direct_lookup', when: 'identifiers' },
    { strategy: 'temporal_range', when: 'time' },
    { strategy: 'entity_anchor', when: 'entities' },
    { strategy: 'centroid_aware', when: 'meaning' },
  ],
  weights: { dense: 1, bm25: 1, entity_anchor: 0.5, temporal_range: 0.6, direct_lookup: 3 },
  depths: DEPTHS,
  semantic: { centroidMode: null, timeFilter: true },
  fusion: 'weighted_rrf',
  rerankers: ['mmr', 'speaker', 'dynamic_scoring'],
};

export const RECIPES: Readonly<Record<Exclude<RecipeName, 'forced'>, Recipe>> = {
  automatic: AUTOMATIC,
  // Exact facts: the words count more than the meaning, dated records are searched by their dates, and the answer
  // stays narrow.
  factual: { ...AUTOMATIC, name: 'factual', weights: { ...AUTOMATIC.weights, bm25: 1.5, temporal_range: 0.8 }, semantic: { centroidMode: 'SPECIFIC', timeFilter: true } },
  // Themes and practices: meaning over wording, broad and diversified, no anchoring on one name or date.
  conceptual: {
    ...AUTOMATIC,
    name: 'conceptual',
    strategies: [{ strategy: 'centroid_aware', when: 'always' }],
    weights: { ...AUTOMATIC.weights, bm25: 0.3 },
    semantic: { centroidMode: 'META', timeFilter: false },
  },
  // Automatic routing, and memories whose sentiment matches the query's are lifted.
  hybrid: { ...AUTOMATIC, name: 'hybrid', rerankers: ['mmr', 'speaker', 'sentiment', 'dynamic_scoring'] },
};

/** One strategy alone, whatever the query says: what `strategy` on POST /v1/search asks for. */
export function forcedRecipe(strategy: StrategyName): Recipe {
  return { ...AUTOMATIC, name: 'forced', strategies: [{ strategy, when: 'always' }], semantic: { centroidMode: null, timeFilter: false } };
}

/** Whether the query carries what the signal asks for. */
export function signalled(signal: Signal, analysis: QueryAnalysis): boolean {
  switch (signal) {
    case 'always':
      return true;
    case 'identifiers':
      return analysis.identifiers.length > 0;
    case 'time':
      return analysis.timeRange !== null || analysis.relativeToEvent !== null;
    case 'entities':
      return analysis.entityKeys.length > 0;
    case 'meaning':
      return !analysis.identifiersOnly;
  }
}

/** The strategies a recipe runs for this query, in the recipe's order. */
export function strategiesFor(recipe: Pick<Recipe, 'strategies'>, analysis: QueryAnalysis): StrategyName[] {
  return recipe.strategies.filter(({ when }) => signalled(when, analysis)).map(({ strategy }) => strategy);
}
