import type { Embedder } from '@memory/ports';

export interface EmbedProgress {
  /** Texts per model call. */
  batch?: number;
  onProgress?: (done: number, total: number) => void;
}

/** Embeds texts in batches, reporting after each, so a long run shows it is moving. */
export async function embedAll(embedder: Embedder, texts: readonly string[], purpose: 'passage' | 'query', options: EmbedProgress = {}): Promise<Float32Array[]> {
  const batch = options.batch ?? 32;
  const vectors: Float32Array[] = [];
  for (let start = 0; start < texts.length; start += batch) {
    vectors.push(...(await embedder.embed(texts.slice(start, start + batch), purpose)));
    options.onProgress?.(vectors.length, texts.length);
  }
  return vectors;
}

/**
 * The dense-only baseline for one query: the k ids whose vectors are nearest by cosine, ties by position. Norms
 * are computed rather than assumed, so an embedder that does not normalise ranks the same.
 */
export function cosineTopK(query: Float32Array, vectors: readonly Float32Array[], ids: readonly string[], k: number): string[] {
  if (vectors.length !== ids.length) throw new RangeError(`${vectors.length} vectors for ${ids.length} ids`);
  const queryNorm = norm(query);
  return vectors
    .map((vector, i) => ({ i, score: dot(query, vector) / (queryNorm * norm(vector) || 1) }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, k)
    .map(({ i }) => ids[i]!);
}

function dot(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new RangeError(`vectors of ${a.length} and ${b.length} dimensions cannot be compared`);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

function norm(a: Float32Array): number {
  return Math.sqrt(dot(a, a));
}
