import { graphIds, type ScoredId } from '@memory/ports';
import { decideCentroidMode, type CentroidDecision, type CentroidMode } from '../centroid-mode.js';
import { withEpisodeContext } from '../episodes.js';
import { fuse } from '../fusion.js';
import { maximalMarginalRelevance } from '../mmr.js';
import type { QueryAnalysis } from '../query-analysis.js';
import type { StrategyContext, StrategyOutcome } from './types.js';

export interface SemanticWeights {
  dense: number;
  bm25: number;
}

/**
 * Candidates each index is asked for. Never fewer than 120, whatever the limit: a memory's place in each list is
 * part of its fused score, so lists cut shorter for a small limit ranked the same memories differently (LoCoMo
 * @10 asked with limit 10: 0.843/0.725 at 60 candidates, 0.853/0.726 at 120, as with limit 20). META casts wider
 * than SPECIFIC for large limits, to diversify from.
 */
const CANDIDATES = { SPECIFIC: { perLimit: 6, floor: 120 }, META: { perLimit: 10, floor: 120 } } as const;
/** BM25 hits read for episode context: enough to know the lexical score of most neighbours of the best hits. */
const LEXICAL_DEPTH = 200;

/**
 * How many BM25 hits the semantic path reads, whatever mode the centroid picks: it does not depend on the query's
 * vector, so the lexical search can run while the query is being embedded.
 */
export const lexicalDepth = (limit: number) => Math.max(LEXICAL_DEPTH, ...Object.values(CANDIDATES).map((plan) => Math.max(limit * plan.perLimit, plan.floor)));

/** The semantic path's BM25 list (see lexicalDepth), optionally kept to a time range. */
export function lexicalCandidates({ deps, scope, limit }: StrategyContext, analysis: QueryAnalysis, timeRange?: { from: number; to: number }): Promise<ScoredId[]> {
  if (analysis.terms.length === 0) return Promise.resolve([]);
  return deps.vectors.textSearch(scope, { terms: analysis.terms, k: lexicalDepth(limit), ...(timeRange ? { timeRange } : {}) });
}
/** How much META trades relevance for variety (λ of MMR). */
const META_LAMBDA = 0.75;

/**
 * centroid_aware, the semantic path: the query's meaning (kNN on the embedded query) and its words (BM25) side by
 * side, the way both modes' stores index them, each smoothed by episode context (see withEpisodeContext). The user's centroid picks the mode (see decideCentroidMode):
 * SPECIFIC hands both lists to fusion as they are, nearest first; META asks for many more candidates, fuses
 * them here and re-orders them by maximal marginal relevance so a broad question gets the breadth of the user's
 * memories.
 */
export async function centroidAware(
  { deps, scope, limit }: StrategyContext,
  analysis: QueryAnalysis,
  queryVector: Float32Array,
  weights: SemanticWeights,
  options: { mode?: CentroidMode; timeRange?: { from: number; to: number }; lexical?: Promise<ScoredId[]> } = {},
): Promise<StrategyOutcome & { decision: CentroidDecision }> {
  const decision: CentroidDecision = options.mode
    ? { mode: options.mode, similarity: null, threshold: null, reason: 'chosen by the caller' }
    : decideCentroidMode(queryVector, deps.centroids ? await deps.centroids.get(scope) : null);
  const plan = CANDIDATES[decision.mode];
  const k = Math.max(limit * plan.perLimit, plan.floor);
  const timeRange = options.timeRange;
  const [nearest, lexicalHits] = await Promise.all([
    deps.vectors.knn(scope, { vector: queryVector, k, ...(timeRange ? { timeRange } : {}) }),
    options.lexical ?? lexicalCandidates({ deps, scope, limit }, analysis, timeRange),
  ]);
  // Wider than k: the BM25 score of a neighbour lifted by episode context is read from this list.
  const matching = lexicalHits.slice(0, Math.max(k, LEXICAL_DEPTH));
  const episode = await withEpisodeContext(deps.vectors, scope, queryVector, nearest, matching, k);
  const { dense, lexical } = episode;
  const details = new Map([...episode.boosts].map(([id, boost]) => [id, { episode: boost }]));
  const anchor = graphIds.user(scope);
  const lists = [
    { name: 'dense', weight: weights.dense, hits: dense, relativeScores: true },
    { name: 'bm25', weight: weights.bm25, hits: lexical },
  ];
  const notes = { centroidMode: decision.mode, centroid: { similarity: decision.similarity, threshold: decision.threshold, reason: decision.reason }, candidates: k };
  if (decision.mode === 'SPECIFIC') {
    return { lists, anchors: new Map([...dense, ...lexical].map((h) => [h.id, anchor])), notes, decision, details };
  }
  const fused = fuse(lists);
  const vectors = new Map((await deps.vectors.get(scope, fused.map((f) => f.id))).map((m) => [m.id, m.vector]));
  const diversified = maximalMarginalRelevance(fused, vectors, Math.max(limit * 4, 20), META_LAMBDA);
  return {
    lists: [{ name: 'centroid_aware', weight: weights.dense + weights.bm25, hits: diversified.map((f) => ({ id: f.id, score: f.score })) }],
    anchors: new Map(diversified.map((f) => [f.id, anchor])),
    notes,
    decision,
    details,
  };
}
