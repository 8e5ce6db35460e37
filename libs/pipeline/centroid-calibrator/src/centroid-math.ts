import type { Centroid } from '@memory/ports';

export function emptyCentroid(embeddingModel: string, dimensions: number): Centroid {
  return { embeddingModel, sum: new Float32Array(dimensions), memoryCount: 0, similaritySum: 0 };
}

/** The unit-length direction of the member sum: what search compares a query with. */
export function centroidDirection(c: Centroid): Float32Array {
  let norm = 0;
  for (let i = 0; i < c.sum.length; i++) norm += c.sum[i]! * c.sum[i]!;
  norm = Math.sqrt(norm);
  const out = new Float32Array(c.sum.length);
  if (norm === 0) return out;
  for (let i = 0; i < c.sum.length; i++) out[i] = c.sum[i]! / norm;
  return out;
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** A centroid after a change, and the share of similaritySum of each member the change folded in, in order. */
export interface Folded {
  centroid: Centroid;
  shares: number[];
}

/**
 * Folds new member vectors into a centroid, in order. Each member's share is its similarity to the centroid as it
 * stood when it joined (1 for the first): the mean of those is the user's typical spread, published as the
 * centroidUpdated event's meanSimilarity. Pure: the same members in the same order give the same centroid.
 */
export function addMembers(centroid: Centroid, vectors: ArrayLike<number>[]): Folded {
  const sum = Float32Array.from(centroid.sum);
  let { memoryCount, similaritySum } = centroid;
  const shares: number[] = [];
  for (const vector of vectors) {
    const share = memoryCount === 0 ? 1 : cosine(sum, vector);
    shares.push(share);
    similaritySum += share;
    for (let i = 0; i < sum.length; i++) sum[i] = sum[i]! + vector[i]!;
    memoryCount++;
  }
  return { centroid: { embeddingModel: centroid.embeddingModel, sum, memoryCount, similaritySum }, shares };
}

/**
 * A member corrected: its old vector and share leave the centroid and its new vector joins the others, as a member
 * joining now would (its share measured against the rest). O(dimensions), whatever the number of members.
 */
export function replaceMember(centroid: Centroid, old: { vector: ArrayLike<number>; share: number }, vector: ArrayLike<number>): Folded {
  const rest: Centroid = {
    embeddingModel: centroid.embeddingModel,
    sum: centroid.sum.map((x, i) => x - old.vector[i]!),
    memoryCount: centroid.memoryCount - 1,
    similaritySum: centroid.similaritySum - old.share,
  };
  return addMembers(rest, [vector]);
}
