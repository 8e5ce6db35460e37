import type { Centroid } from '@memory/ports';

export type CentroidMode = 'META' | 'SPECIFIC';

export interface CentroidDecision {
  mode: CentroidMode;
  /** Cosine between the query and the user's centroid; null without a centroid. */
  similarity: number | null;
  /** The user's own threshold: the mean similarity of their memories to their centroid when they joined it. */
  threshold: number | null;
  reason: string;
}

/** Below this many memories a centroid says too little about the user to call any query broad. */
export const MIN_CENTROID_MEMBERS = 10;

/**
 * META (broad) or SPECIFIC (narrow). A query at least as close to the user's centroid as their average memory is
 * about what the user's memories are about in general (a theme, a habit), so it gets the broad, diversified
 * search; a query farther out points at something particular. The threshold is the user's own mean
 * member-to-centroid similarity, so a user whose memories are all alike needs a closer query to count as broad.
 */
export function decideCentroidMode(query: Float32Array, centroid: Centroid | null): CentroidDecision {
  if (!centroid || centroid.memoryCount < MIN_CENTROID_MEMBERS) {
    return { mode: 'SPECIFIC', similarity: null, threshold: null, reason: `fewer than ${MIN_CENTROID_MEMBERS} memories: nothing broad to summarise yet` };
  }
  const similarity = cosine(query, centroid.sum);
  const threshold = centroid.similaritySum / centroid.memoryCount;
  const mode: CentroidMode = similarity >= threshold ? 'META' : 'SPECIFIC';
  return {
    mode,
    similarity,
    threshold,
    reason: mode === 'META' ? 'the query is as central to the user as their average memory' : 'the query lies farther from the user centroid than their average memory',
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
