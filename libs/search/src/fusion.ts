/** One strategy's ranked answer, as fusion takes it. */
export interface RankedList {
  /** dense, bm25, entity_anchor, temporal_range, direct_lookup */
  name: string;
  weight: number;
  /** Best first; scores on the list's own scale (cosine, BM25, idf sums...). */
  hits: ReadonlyArray<{ id: string; score: number }>;
  /** The scores have no meaningful zero (cosine similarity): they are normalised from the list's weakest hit. */
  relativeScores?: boolean;
}

export interface Contribution {
  rank: number;
  score: number;
  /** score / the list's best score, 0..1. */
  normalised: number;
}

export interface Fused {
  id: string;
  /** 0..1 */
  score: number;
  contributions: Record<string, Contribution>;
}

/**
 * weighted_rrf, the fusion of text search:
 *
 *   fused(d) = Σ_lists w · [ s · (k + 1) / (k + rank(d)) + (1 − s) · normalised(d) ] / Σ_lists w
 *
 * a weighted reciprocal-rank fusion (k = 60, scaled so rank 1 counts 1) blended with each list's scores normalised
 * to 0..1; s = rrfShare. Rank fusion makes lists on unrelated scales (cosine, BM25, idf sums) comparable; the
 * normalised scores keep how much better the first hit is than the tenth, which ranks alone throw away.
 * normalised(d) = score / the list's best score, except for a list marked relativeScores (cosine similarity, whose
 * zero means nothing: unrelated texts sit well above it) with at least MIN_RELATIVE_HITS hits: there it is
 * (score − floor) / (best − floor), clamped at 0, floor the score at rank FLOOR_RANK (the list's last when shorter),
 * so the list's spread, not its offset, is what counts. A fixed rank rather than the list's weakest hit: the lists'
 * depth grows with the limit, and a query should rank its first memories alike whatever limit it asks for.
 * A memory missing from a list gets 0 from it. The result is in 0..1: 1 only for a memory first in every list.
 */
export const FUSION_DEFAULTS = { rrfK: 60, rrfShare: 0.2 } as const;
/** Fewer hits than this and a relativeScores list's weakest is no background level: it is divided by its best. */
export const MIN_RELATIVE_HITS = 10;
/** The rank whose score is a relativeScores list's zero: well inside the 120 candidates the semantic path asks for. */
export const FLOOR_RANK = 40;

/**
 * The score of an unrelated memory for this query, on a relativeScores list's own scale: cosines have no meaningful
 * zero (unrelated texts sit well above 0, and how far above depends on the model), so the background is read from
 * the query's own list, at rank FLOOR_RANK (its last hit when shorter). With fewer than MIN_RELATIVE_HITS hits the
 * list shows no background level and 0 is taken.
 */
export function cosineBackground(hits: ReadonlyArray<{ score: number }>): number {
  return hits.length >= MIN_RELATIVE_HITS ? hits[Math.min(FLOOR_RANK, hits.length) - 1]!.score : 0;
}

export function fuse(lists: readonly RankedList[], options: { rrfK?: number; rrfShare?: number } = {}): Fused[] {
  const rrfK = options.rrfK ?? FUSION_DEFAULTS.rrfK;
  const share = options.rrfShare ?? FUSION_DEFAULTS.rrfShare;
  const totalWeight = lists.reduce((sum, list) => sum + (list.hits.length > 0 ? list.weight : 0), 0);
  if (totalWeight <= 0) return [];
  const byId = new Map<string, Fused>();
  for (const list of lists) {
    const best = list.hits.reduce((max, hit) => Math.max(max, hit.score), 0);
    const floor = list.relativeScores ? cosineBackground(list.hits) : 0;
    const seen = new Set<string>();
    list.hits.forEach((hit, index) => {
      if (seen.has(hit.id)) return; // a list naming a memory twice counts its better (first) place only
      seen.add(hit.id);
      const rank = index + 1;
      const normalised = best > floor ? Math.max(0, hit.score - floor) / (best - floor) : 0;
      let fused = byId.get(hit.id);
      if (!fused) byId.set(hit.id, (fused = { id: hit.id, score: 0, contributions: {} }));
      fused.contributions[list.name] = { rank, score: hit.score, normalised };
      fused.score += (list.weight * (share * ((rrfK + 1) / (rrfK + rank)) + (1 - share) * normalised)) / totalWeight;
    });
  }
  return [...byId.values()]
    .map((f) => ({ ...f, score: Math.min(1, Math.max(0, f.score)) }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * best_score, the fusion of image search: a memory keeps the best of its weighted scores (a weight below 1 marks a
 * list as weaker evidence), clamped to 0..1. Lists of one scale (cosine) need no rank fusion.
 */
export function fuseBestScore(lists: readonly RankedList[]): Fused[] {
  const byId = new Map<string, Fused>();
  for (const list of lists) {
    list.hits.forEach((hit, index) => {
      let fused = byId.get(hit.id);
      if (!fused) byId.set(hit.id, (fused = { id: hit.id, score: 0, contributions: {} }));
      if (fused.contributions[list.name]) return;
      fused.contributions[list.name] = { rank: index + 1, score: hit.score, normalised: hit.score };
      fused.score = Math.max(fused.score, Math.min(1, Math.max(0, hit.score * list.weight)));
    });
  }
  return [...byId.values()].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The fusion methods a recipe names. */
export const FUSION_METHODS = { weighted_rrf: (lists: readonly RankedList[]) => fuse(lists), best_score: fuseBestScore } as const;
export type FusionMethod = keyof typeof FUSION_METHODS;
