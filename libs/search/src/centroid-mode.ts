import type { Centroid } from '@memory/ports';

export type CentroidMode = 'META' | 'SPECIFIC';

export interface CentroidDecision {
  mode: CentroidMode;
  /** Cosine between the query and the user's centroid; null when not measured. */
  similarity: number | null;
  /** What the centroid's cosine is compared with: the cosine of the query's nearest memory; null when not measured. */
  threshold: number | null;
  reason: string;
}

/** Below this many memories a centroid says too little about the user to call any query broad. */
export const MIN_CENTROID_MEMBERS = 10;

/**
 * META (broad) or SPECIFIC (narrow), from the query's own cosines. A query about something particular has a memory
 * nearer to it than the blend of all the user's memories; a query about the user as a whole ("what are my hobbies",
 * "tell me about myself") has none: the centroid is nearer than any one memory. Both cosines are of the same query
 * vector with passage vectors, so whatever a model adds to every query (bge's instruction, e5's prefix) and the
 * level at which it puts unrelated texts cancel out; no constant is tuned to a model or a user.
 *
 * `nearest` is the cosine of the query's nearest memory (the kNN list's first), null when the list is empty.
 */
export function decideCentroidMode(query: Float32Array, centroid: Centroid | null, nearest: number | null): CentroidDecision {
  if (!centroid || centroid.memoryCount < MIN_CENTROID_MEMBERS) {
    return { mode: 'SPECIFIC', similarity: null, threshold: null, reason: `fewer than ${MIN_CENTROID_MEMBERS} memories: nothing broad to summarise yet` };
  }
  const similarity = cosine(query, centroid.sum);
  if (nearest === null) return { mode: 'SPECIFIC', similarity, threshold: null, reason: 'no memory found to compare the centroid with' };
  const mode: CentroidMode = similarity > nearest ? 'META' : 'SPECIFIC';
  return {
    mode,
    similarity,
    threshold: nearest,
    reason: mode === 'META' ? 'the query is nearer the user centroid than any one of their memories' : 'one of the user memories is nearer the query than their centroid',
  };
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}
