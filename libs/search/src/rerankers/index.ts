import { scoreSentiment } from '@memory/enrichment';
import { dynamicScore, clamp01 } from './dynamic-scoring.js';
import { maximalMarginalRelevance, mmrScores } from './mmr.js';
import type { RerankerName } from './names.js';
import { rescored, type Candidate, type Ranked, type RecordReranker, type RerankContext, type Reranker, type VectorReranker } from './reranker.js';
import { speakerFactor, speakerOf, speakersNamed } from './speaker.js';

/** How much a memory whose sentiment matches the query's is lifted. */
const SENTIMENT_MATCH_BOOST = 0.1;
/** How much META trades relevance for variety (λ of MMR). */
const META_LAMBDA = 0.75;

const mmr: VectorReranker = {
  name: 'mmr',
  reads: 'vectors',
  // A broad question (META) gets the breadth of the user's memories instead of ten paraphrases of one.
  applies: (context) => context.centroidMode === 'META',
  rerank(candidates, { limit }) {
    const picked = maximalMarginalRelevance(candidates, Math.max(limit * 4, 20), META_LAMBDA);
    const scores = mmrScores(picked);
    return picked.map((candidate, index) => rescored(candidate, 'mmr', scores[index]!, { pick: index + 1, relevance: candidate.score }));
  },
};

const speaker: RecordReranker = {
  name: 'speaker',
  reads: 'records',
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

const sentiment: RecordReranker = {
  name: 'sentiment',
  reads: 'records',
  rerank(candidates, { query }) {
    const label = scoreSentiment(query, new Set()).label;
    if (label === 'neutral') return candidates;
    return candidates.map((c) => (c.memory.sentiment === label ? rescored(c, 'sentiment', clamp01(c.score * (1 + SENTIMENT_MATCH_BOOST)), { match: label }) : c));
  },
};

const dynamicScoring: RecordReranker = {
  name: 'dynamic_scoring',
  reads: 'records',
  rerank(candidates, { now }) {
    return candidates.map((c) => {
      const { recency, authority, finalScore } = dynamicScore(c.score, c.memory, now);
      return rescored(c, 'dynamic_scoring', finalScore, { recency, authority });
    });
  },
};

export const RERANKERS: Readonly<Record<RerankerName, Reranker>> = { mmr, speaker, sentiment, dynamic_scoring: dynamicScoring };

/** The rerankers of a recipe that take part in this search, in order, vector rerankers apart. */
export function rerankersFor(names: readonly RerankerName[], context: RerankContext): { byVector: VectorReranker[]; byRecord: RecordReranker[] } {
  const chain = names.map((name) => RERANKERS[name]).filter((reranker) => reranker.applies?.(context) ?? true);
  return { byVector: chain.filter((r): r is VectorReranker => r.reads === 'vectors'), byRecord: chain.filter((r): r is RecordReranker => r.reads === 'records') };
}

/** Runs a chain of rerankers of one kind, each on the previous one's output. */
export function runChain<T extends Ranked>(candidates: T[], chain: ReadonlyArray<{ rerank(candidates: T[], context: RerankContext): T[] }>, context: RerankContext): T[] {
  return chain.reduce((current, reranker) => reranker.rerank(current, context), candidates);
}

/** The first `limit` candidates by score; ties go to the newer memory, then to the smaller id. */
export function bestFirst(candidates: readonly Candidate[], limit: number): Candidate[] {
  return [...candidates].sort((a, b) => b.score - a.score || b.memory.createdAt - a.memory.createdAt || a.id.localeCompare(b.id)).slice(0, limit);
}

export type { Candidate, Ranked, RecordReranker, RerankContext, Reranker, VectorCandidate, VectorReranker } from './reranker.js';
export { RERANKER_NAMES, type RerankerName } from './names.js';
