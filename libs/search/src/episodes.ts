import type { Fused } from './fusion.js';

/**
 * Episode context: memories recorded within `windowMs` of each other belong to one exchange (a question and its
 * answer, a message and its follow-up), and a memory whose neighbour matches the query well is likely part of
 * the answer even when its own words do not match ("Yes, adoption agencies!" after "What did you research?").
 *
 *   score'(d) = (score(d) + weight · max score of d's neighbours among the candidates) / (1 + weight)
 *
 * Neighbours are looked for among the fused candidates only (no extra store read). Dividing by 1 + weight keeps
 * the score in 0..1.
 */
export const EPISODE_DEFAULTS = { windowMs: 90_000, weight: 0.3 } as const;

export interface EpisodeBoost {
  neighbour: string;
  boost: number;
}

export function withEpisodeContext(
  candidates: readonly Fused[],
  createdAtOf: ReadonlyMap<string, number>,
  options: { windowMs?: number; weight?: number } = {},
): Array<Fused & { episode?: EpisodeBoost }> {
  const windowMs = options.windowMs ?? EPISODE_DEFAULTS.windowMs;
  const weight = options.weight ?? EPISODE_DEFAULTS.weight;
  const timed = candidates.filter((c) => createdAtOf.has(c.id)).sort((a, b) => createdAtOf.get(a.id)! - createdAtOf.get(b.id)!);
  const best = new Map<string, { id: string; score: number }>();
  // Sorted by time, each memory's neighbours are a contiguous run: a sliding window, not all pairs.
  let start = 0;
  for (let i = 0; i < timed.length; i++) {
    const t = createdAtOf.get(timed[i]!.id)!;
    while (createdAtOf.get(timed[start]!.id)! < t - windowMs) start++;
    for (let j = start; j < timed.length && createdAtOf.get(timed[j]!.id)! <= t + windowMs; j++) {
      if (j === i) continue;
      const current = best.get(timed[i]!.id);
      if (!current || timed[j]!.score > current.score) best.set(timed[i]!.id, { id: timed[j]!.id, score: timed[j]!.score });
    }
  }
  return candidates
    .map((c) => {
      const neighbour = best.get(c.id);
      if (!neighbour || weight === 0) return { ...c, score: c.score / (1 + weight) };
      return { ...c, score: (c.score + weight * neighbour.score) / (1 + weight), episode: { neighbour: neighbour.id, boost: (weight * neighbour.score) / (1 + weight) } };
    })
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
