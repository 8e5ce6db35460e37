import type { MemoryFilter, Scope, ScoredId, VectorStore } from '@memory/ports';

/**
 * Episode context: memories recorded within `windowMs` of each other belong to one exchange (a question and its
 * answer, a message and its follow-ups), and a memory whose neighbour matches the query is likely part of the
 * answer even when its own words do not ("Yes, adoption agencies!" after "What did you research?"). Each of the
 * semantic path's lists (kNN and BM25) is smoothed before fusion:
 *
 *   score'(d) = score(d) + weight · max score of d's neighbours
 *
 * d's neighbours are the `neighbours` memories created just before it and the `neighbours` just after, within
 * windowMs: an exchange is a few messages, and when many memories are created at once (an import) a memory's
 * neighbourhood stays a handful instead of everything of that minute, which would lift all of them alike and cost
 * time quadratic in the burst.
 *
 * The neighbours are read from the store around the best `seeds` of each list, scored against the query vector in
 * the same read (createdNear), so a memory that neither list found can rise on its neighbour's score; their BM25
 * score is taken from the BM25 list (0 when absent). No memory is read back. It smooths each list before fusion
 * rather than reranking the fused candidates, which would only reorder memories already found.
 */
export interface EpisodeOptions {
  windowMs: number;
  weight: number;
  /** How many of each list's best memories have their neighbours read. */
  seeds: number;
  /** At most this many neighbours are read (which ones when the windows hold more is the store's choice: VectorStore.createdNear). */
  maxPool: number;
  /** How many memories on each side of one are its neighbours (those within windowMs). */
  neighbours: number;
}

export const EPISODE_DEFAULTS: Readonly<EpisodeOptions> = { windowMs: 180_000, weight: 0.5, seeds: 50, maxPool: 600, neighbours: 3 };

export interface EpisodeLists {
  dense: ScoredId[];
  lexical: ScoredId[];
  /** The memory whose score lifted each lifted memory, and by how much (for explain). */
  boosts: Map<string, { neighbour: string; dense: number; lexical: number }>;
}

export async function withEpisodeContext(
  vectors: VectorStore,
  scope: Scope,
  query: Float32Array,
  dense: ScoredId[],
  lexical: ScoredId[],
  k: number,
  filter?: MemoryFilter,
  options: Partial<EpisodeOptions> = {},
): Promise<EpisodeLists> {
  const { windowMs, weight, seeds, maxPool, neighbours: span } = { ...EPISODE_DEFAULTS, ...options };
  const seedHits = [...dense.slice(0, seeds), ...lexical.slice(0, seeds)];
  const seedIds = [...new Set(seedHits.map((h) => h.id))];
  if (seedIds.length === 0 || weight === 0) return { dense, lexical, boosts: new Map() };
  // Times and scores only: no memory (and no vector) is read back for this. A store that gave the hits their
  // creation times saves the round trip of reading them.
  const known = new Map(seedHits.flatMap((h) => (h.createdAt === undefined ? [] : [[h.id, h.createdAt] as const])));
  const unknown = seedIds.filter((id) => !known.has(id));
  const seedTimes = unknown.length === 0 ? known : new Map([...known, ...(await vectors.creationTimes(scope, unknown))]);
  // Neighbours join the lists, so they pass the same filter as the memories they neighbour.
  const near = await vectors.createdNear(scope, { instants: [...seedTimes.values()], windowMs, limit: maxPool, vector: query, ...(filter ? { filter } : {}) });
  const createdAt = new Map([...seedTimes, ...near.map((n) => [n.id, n.time] as const)]);
  const denseScore = new Map(dense.map((h) => [h.id, h.score]));
  // A seed is in its own window, so it has its score from there too, unless a burst left it out of the maxPool read.
  for (const n of near) if (!denseScore.has(n.id)) denseScore.set(n.id, n.score);
  const lexicalScore = new Map(lexical.map((h) => [h.id, h.score]));

  const pool = [...createdAt].map(([id, time]) => ({ id, time })).sort((a, b) => a.time - b.time || (a.id < b.id ? -1 : 1));
  const smoothedDense = new Map<string, number>();
  const smoothedLexical = new Map<string, number>();
  const boosts = new Map<string, { neighbour: string; dense: number; lexical: number }>();
  forEachNeighbourhood(pool, windowMs, span, (memory, neighbours) => {
    const d = bestNeighbour(neighbours, denseScore);
    const l = bestNeighbour(neighbours, lexicalScore);
    const denseBoost = weight * Math.max(0, d?.score ?? 0);
    const lexicalBoost = weight * Math.max(0, l?.score ?? 0);
    smoothedDense.set(memory.id, (denseScore.get(memory.id) ?? 0) + denseBoost);
    smoothedLexical.set(memory.id, (lexicalScore.get(memory.id) ?? 0) + lexicalBoost);
    if (d && (denseBoost > 0 || lexicalBoost > 0)) boosts.set(memory.id, { neighbour: d.id, dense: denseBoost, lexical: lexicalBoost });
  });
  // Memories of the lists outside the pool (past the seeds, with no neighbour read) keep their own score.
  for (const h of dense) if (!smoothedDense.has(h.id)) smoothedDense.set(h.id, h.score);
  for (const h of lexical) if (!smoothedLexical.has(h.id)) smoothedLexical.set(h.id, h.score);
  const ranked = (scores: Map<string, number>) =>
    [...scores]
      .filter(([, score]) => score > 0)
      .map(([id, score]) => ({ id, score }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, k);
  return { dense: ranked(smoothedDense), lexical: ranked(smoothedLexical), boosts };
}

type Timed = { id: string; time: number };

/** The neighbour with the highest score (0 for one without), the first of equals; null when there is none. */
function bestNeighbour(neighbours: readonly Timed[], scores: Map<string, number>): { id: string; score: number } | null {
  let best: { id: string; score: number } | null = null;
  for (const n of neighbours) {
    const score = scores.get(n.id) ?? 0;
    if (!best || score > best.score) best = { id: n.id, score };
  }
  return best;
}

/** Calls `visit` for each memory (sorted by time) with up to `span` memories on each side created within windowMs of it. */
function forEachNeighbourhood(sorted: Timed[], windowMs: number, span: number, visit: (memory: Timed, neighbours: Timed[]) => void): void {
  for (let i = 0; i < sorted.length; i++) {
    const t = sorted[i]!.time;
    const neighbours: Timed[] = [];
    for (let j = i - 1; j >= Math.max(0, i - span) && sorted[j]!.time >= t - windowMs; j--) neighbours.push(sorted[j]!);
    for (let j = i + 1; j < Math.min(sorted.length, i + 1 + span) && sorted[j]!.time <= t + windowMs; j++) neighbours.push(sorted[j]!);
    visit(sorted[i]!, neighbours);
  }
}
