import type { StoredMemory } from '@memory/ports';
import type { CentroidMode } from '../centroid-mode.js';
import type { CandidateDepths } from '../recipes.js';
import type { RerankerName } from './names.js';

/** A fused memory on its way through the rerankers. */
export interface Ranked {
  id: string;
  /** 0..1: the fused score, then each reranker's. */
  score: number;
  /** What each reranker that took part did (its factors and the score after it), in the order they ran. */
  steps: Partial<Record<RerankerName, Record<string, unknown>>>;
}

/** With the record most rerankers read. */
export interface Candidate extends Ranked {
  memory: StoredMemory;
}

/** With only its vector: what a reranker comparing memories reads (a vector is most of a record's bytes). */
export interface VectorCandidate extends Ranked {
  vector: Float32Array;
}

export interface RerankContext {
  query: string;
  limit: number;
  /** Search may read the clock (recency); pipeline stages never do. */
  now: number;
  /** The semantic path's decision, when it ran: META asks for a broad, diversified answer. */
  centroidMode: CentroidMode | null;
  depths: CandidateDepths;
}

/**
 * A named, pure step after fusion: takes the candidates and returns them rescored (or a subset of them). The final
 * order is by score once every reranker has run, so a reranker that only rescores need not sort.
 *
 * A record reranker reads the candidates' records: the best limit × perLimit + extra fused ones (see
 * CandidateDepths.rerank), or those a vector reranker kept. A vector reranker reads only their vectors, of every
 * fused candidate, and runs before any record reranker (a recipe lists it first), so records are read only for
 * what it keeps.
 */
export type Reranker = RecordReranker | VectorReranker;

interface RerankerBase {
  name: RerankerName;
  /** Whether it takes part in this search (default: always). */
  applies?(context: RerankContext): boolean;
}

export interface RecordReranker extends RerankerBase {
  reads: 'records';
  rerank(candidates: Candidate[], context: RerankContext): Candidate[];
}

export interface VectorReranker extends RerankerBase {
  reads: 'vectors';
  rerank(candidates: VectorCandidate[], context: RerankContext): VectorCandidate[];
}

/** The candidate with a new score and what the reranker records about it. */
export function rescored<T extends Ranked>(candidate: T, reranker: RerankerName, score: number, factors: Record<string, unknown> = {}): T {
  return { ...candidate, score, steps: { ...candidate.steps, [reranker]: { ...factors, score } } };
}
