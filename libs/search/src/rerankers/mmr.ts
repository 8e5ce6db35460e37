/**
 * Maximal marginal relevance: picks, one at a time, the candidate that best trades its relevance against its
 * likeness to what was already picked (λ·relevance − (1−λ)·max cosine to the picked). Spreads a broad (META) answer
 * over the user's different memories instead of ten paraphrases of one. Relevance is expected in 0..1.
 */
export function maximalMarginalRelevance<T extends { id: string; score: number; vector: Float32Array }>(candidates: readonly T[], count: number, lambda = 0.7): T[] {
  // Unit vectors once, so each of the pool × picks comparisons is a dot product (cosine without its two norms).
  const units = candidates.map((candidate) => unit(candidate.vector));
  /** Each candidate's highest cosine to the memories picked so far. */
  const closest = new Float64Array(candidates.length);
  const remaining = candidates.map((_, index) => index);
  const picked: T[] = [];
  while (picked.length < count && remaining.length > 0) {
    let bestAt = 0;
    let bestValue = Number.NEGATIVE_INFINITY;
    for (let at = 0; at < remaining.length; at++) {
      const index = remaining[at]!;
      const value = lambda * candidates[index]!.score - (1 - lambda) * closest[index]!;
      if (value > bestValue) [bestAt, bestValue] = [at, value];
    }
    const [chosen] = remaining.splice(bestAt, 1);
    picked.push(candidates[chosen!]!);
    const chosenUnit = units[chosen!]!;
    for (let at = 0; at < remaining.length; at++) {
      const index = remaining[at]!;
      const similarity = dot(units[index]!, chosenUnit);
      if (similarity > closest[index]!) closest[index] = similarity;
    }
  }
  return picked;
}

/** The vector scaled to length 1 (all zeros stays all zeros, whose cosine to anything is taken as 0). */
function unit(vector: Float32Array): Float32Array {
  let squares = 0;
  for (const value of vector) squares += value * value;
  const scale = squares > 0 ? 1 / Math.sqrt(squares) : 0;
  return vector.map((value) => value * scale);
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/**
 * Scores that keep the order MMR picked in, since the final order is by score: the picks' own relevances, sorted
 * and handed out in pick order, so the scores stay those of the memories picked and only their order changes.
 */
export function mmrScores(picked: ReadonlyArray<{ score: number }>): number[] {
  return picked.map((p) => p.score).sort((a, b) => b - a);
}
