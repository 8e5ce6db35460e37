import { cosine } from '../centroid-mode.js';

/**
 * Maximal marginal relevance: picks, one at a time, the candidate that best trades its relevance against its
 * likeness to what was already picked (λ·relevance − (1−λ)·max cosine to the picked). Spreads a broad (META) answer
 * over the user's different memories instead of ten paraphrases of one. Relevance is expected in 0..1.
 */
export function maximalMarginalRelevance<T extends { id: string; score: number }>(candidates: readonly T[], vectors: ReadonlyMap<string, Float32Array>, count: number, lambda = 0.7): T[] {
  const pool = candidates.filter((c) => vectors.has(c.id));
  const picked: T[] = [];
  const closest = new Map<string, number>(pool.map((c) => [c.id, 0]));
  while (picked.length < count && pool.length > 0) {
    let bestIndex = 0;
    let bestValue = Number.NEGATIVE_INFINITY;
    pool.forEach((candidate, index) => {
      const value = lambda * candidate.score - (1 - lambda) * closest.get(candidate.id)!;
      if (value > bestValue) [bestIndex, bestValue] = [index, value];
    });
    const [chosen] = pool.splice(bestIndex, 1);
    picked.push(chosen!);
    const chosenVector = vectors.get(chosen!.id)!;
    for (const other of pool) closest.set(other.id, Math.max(closest.get(other.id)!, cosine(vectors.get(other.id)!, chosenVector)));
  }
  return picked;
}

/**
 * Scores that keep the order MMR picked in, since the final order is by score: the picks' own relevances, sorted
 * and handed out in pick order, so the scores stay those of the memories picked and only their order changes.
 */
export function mmrScores(picked: ReadonlyArray<{ score: number }>): number[] {
  return picked.map((p) => p.score).sort((a, b) => b - a);
}
