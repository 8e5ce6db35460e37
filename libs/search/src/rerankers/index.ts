import { scoreSentiment } from '@memory/enrichment';
import { dynamicScore, clamp01 } from './dynamic-scoring.js';
import { maximalMarginalRelevance, mmrScores } from './mmr.js';
import type { RerankerName } from './names.js';
import { rescored, type Candidate, type RerankContext, type Reranker } from './reranker.js';
import { speakerFactor, speakerOf, speakersNamed } from './speaker.js';

/** How much a memory whose sentiment matches the query's is lifted. */
const SENTIMENT_MATCH_BOOST = 0.1;
/** How much META trades relevance for variety (λ of MMR). */
const META_LAMBDA = 0.75;

const mmr: Reranker = {
  name: 'mmr',
  // A broad question (META) gets the breadth of the user's memories instead of ten paraphrases of one.
  applies: (context) => context.centroidMode === 'META',
  readsWholePool: true,
  readsVectors: true,
  rerank(candidates, { limit }) {
    const vectors = new Map(candidates.flatMap((c) => (c.vector ? [[c.id, c.vector] as const] : [])));
    const picked = maximalMarginalRelevance(candidates, vectors, Math.max(limit * 4, 20), META_LAMBDA);
    const scores = mmrScores(picked);
    return picked.map((candidate, index) => rescored(candidate, 'mmr', scores[index]!, { pick: index + 1, relevance: candidate.score }));
  },
};

const speaker: Reranker = {
  name: 'speaker',
  rerank(candidates, { query }) {
    const speakers = new Map(candidates.map((c) => [c.id, speakerOf(c.memory.originalContent)]));
    const named = speakersNamed(query, speakers.values());
    if (named.size === 0) return candidates;
    return candidates.map((c) => {
      const factor = speakerFactor(speakers.get(c.id) ?? null, named);
      return factor === 1 ? c : rescored(c, 'speaker', c.score * factor, { factor });
    });
  },
};

const sentiment: Reranker = {
  name: 'sentiment',
  rerank(candidates, { query }) {
    const label = scoreSentiment(query, new Set()).label;
    if (label === 'neutral') return candidates;
    return candidates.map((c) => (c.memory.sentiment === label ? rescored(c, 'sentiment', clamp01(c.score * (1 + SENTIMENT_MATCH_BOOST)), { match: label }) : c));
  },
};

const dynamicScoring: Reranker = {
  name: 'dynamic_scoring',
  rerank(candidates, { now }) {
    return candidates.map((c) => {
      const { recency, authority, finalScore } = dynamicScore(c.score, c.memory, now);
      return rescored(c, 'dynamic_scoring', finalScore, { recency, authority });
    });
  },
};

export const RERANKERS: Readonly<Record<RerankerName, Reranker>> = { mmr, speaker, sentiment, dynamic_scoring: dynamicScoring };

/** The rerankers of a recipe that take part in this search, in order. */
export function rerankersFor(names: readonly RerankerName[], context: RerankContext): Reranker[] {
  return names.map((name) => RERANKERS[name]).filter((reranker) => reranker.applies?.(context) ?? true);
}

/** Runs the chain, then keeps the best (see bestFirst). */
export function rerank(candidates: Candidate[], chain: readonly Reranker[], context: RerankContext): Candidate[] {
  return bestFirst(chain.reduce((current, reranker) => reranker.rerank(current, context), candidates), context.limit);
}

/** The first `limit` candidates by score; ties go to the newer memory, then to the smaller id. */
export function bestFirst(candidates: readonly Candidate[], limit: number): Candidate[] {
  return [...candidates].sort((a, b) => b.score - a.score || b.memory.createdAt - a.memory.createdAt || a.id.localeCompare(b.id)).slice(0, limit);
}

export type { Candidate, RerankContext, Reranker } from './reranker.js';
export { RERANKER_NAMES, type RerankerName } from './names.js';
