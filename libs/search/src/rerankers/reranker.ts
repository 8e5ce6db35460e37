import type { StoredMemory } from '@memory/ports';
import type { CentroidMode } from '../centroid-mode.js';
import type { CandidateDepths } from '../recipes.js';
import type { RerankerName } from './names.js';

/** A fused memory on its way through the rerankers, with the record they read. */
export interface Candidate {
  id: string;
  memory: StoredMemory;
  /** Its vector, read only when a reranker of the chain compares memories (Reranker.readsVectors). */
  vector?: Float32Array;
  /** 0..1: the fused score, then each reranker's. */
  score: number;
  /** What each reranker that took part did (its factors and the score after it), in the order they ran. */
  steps: Partial<Record<RerankerName, Record<string, unknown>>>;
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
 */
export interface Reranker {
  name: RerankerName;
  /** Whether it takes part in this search (default: always). */
  applies?(context: RerankContext): boolean;
  /** Reads every fused candidate rather than the best limit × perLimit + extra (see CandidateDepths.rerank). */
  readsWholePool?: boolean;
  /** Compares the candidates' vectors, so they are read with the records (they are most of a record's bytes). */
  readsVectors?: boolean;
  rerank(candidates: Candidate[], context: RerankContext): Candidate[];
}

/** The candidate with a new score and what the reranker records about it. */
export function rescored(candidate: Candidate, reranker: RerankerName, score: number, factors: Record<string, unknown> = {}): Candidate {
  return { ...candidate, score, steps: { ...candidate.steps, [reranker]: { ...factors, score } } };
}
