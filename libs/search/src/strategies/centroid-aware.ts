import { timeStep } from '@memory/platform';
import { graphIds, type Centroid, type ScoredId } from '@memory/ports';
import { decideCentroidMode, type CentroidDecision, type CentroidMode } from '../centroid-mode.js';
import { withEpisodeContext } from '../episodes.js';
import type { RankedList } from '../fusion.js';
import type { Strategy, StrategyResult, TextStrategyInput } from './strategy.js';

type TimeFilter = { from: number; to: number };

/**
 * centroid_aware, the semantic path: the query's meaning (kNN on the embedded query) and its words (BM25) side by
 * side, the way both modes' stores index them, each list smoothed by episode context (see withEpisodeContext) before
 * fusion. The query's cosine to the user's centroid against its nearest memory's decides how broad it is (see
 * decideCentroidMode): META casts a wider net, and the mmr reranker diversifies the answer after fusion.
 *
 * Both lists, and the episode neighbours, keep to the request's filter (config.filter), inside the store's query.
 * With a time filter (a recipe's semantic.timeFilter and a time range in the query) both lists keep to the range.
 * When the range leaves fewer memories than the limit, its words may not have been a date after all ("May" the name),
 * so the unfiltered lists rank too, at half weight.
 */
export const centroidAware: Strategy = {
  name: 'centroid_aware',
  async run(input) {
    const { config, analysis } = input;
    const range = config.semantic.timeFilter && analysis.timeRange ? { from: analysis.timeRange.from, to: analysis.timeRange.to } : undefined;
    // Asked before the embedding is awaited: BM25 and the user's centroid are read while the model's thread embeds
    // the query, instead of one after the other.
    const vector = input.queryVector();
    const lexical = lexicalCandidates(input, range);
    const centroid = config.semantic.centroidMode ? null : input.userCentroid();
    // When the embedding fails first, nobody awaits these reads: their own failures must not go unhandled.
    lexical.catch(() => undefined);
    centroid?.catch(() => undefined);
    const queryVector = await vector;
    // The kNN starts as soon as the query is embedded, without waiting for the centroid. When the recipe leaves the
    // mode to the query, the decision reads the list's nearest cosine, so one list is fetched at the deeper of the two
    // depths and SPECIFIC keeps its first (nearest-first) part.
    const forced = config.semantic.centroidMode;
    const k = forced ? candidateCount(config, forced) : Math.max(candidateCount(config, 'META'), candidateCount(config, 'SPECIFIC'));
    const nearest = input.deps.vectors.knn(config.scope, { vector: queryVector, k, timeRange: range, filter: config.filter });
    nearest.catch(() => undefined);
    const decision: CentroidDecision = forced
      ? { mode: forced, similarity: null, threshold: null, reason: 'chosen by the recipe' }
      : await automaticMode(input, queryVector, await centroid, nearest, range);
    const filtered = await semanticLists(input, queryVector, decision, 1, '', range, lexical, nearest);
    const found = new Set(filtered.lists.flatMap((list) => list.hits.map((hit) => hit.id)));
    if (!range || found.size >= config.limit) return filtered;
    const open = await semanticLists(input, queryVector, decision, 0.5, '_unfiltered', undefined);
    return { ...filtered, lists: [...filtered.lists, ...open.lists], anchors: new Map([...open.anchors, ...filtered.anchors]) };
  },
};

/** The kNN and BM25 lists, smoothed by episode context, their weights scaled by `share` and their names suffixed. */
async function semanticLists(
  input: TextStrategyInput,
  queryVector: Float32Array,
  decision: CentroidDecision,
  share: number,
  suffix: string,
  timeRange: TimeFilter | undefined,
  lexical?: Promise<ScoredId[]>,
  started?: Promise<ScoredId[]>,
): Promise<StrategyResult> {
  const { deps, config } = input;
  const { scope, depths, weights } = config;
  const k = candidateCount(config, decision.mode);
  const [nearest, lexicalHits] = await Promise.all([
    started ? started.then((hits) => hits.slice(0, k)) : deps.vectors.knn(scope, { vector: queryVector, k, timeRange, filter: config.filter }),
    lexical ?? lexicalCandidates(input, timeRange),
  ]);
  // Wider than k: the BM25 score of a neighbour lifted by episode context is read from this list.
  const matching = lexicalHits.slice(0, Math.max(k, depths.lexical));
  const episode = await timeStep('episodes', () => withEpisodeContext(deps.vectors, scope, queryVector, nearest, matching, k, config.filter));
  const anchor = graphIds.user(scope);
  const lists: RankedList[] = [
    { name: `dense${suffix}`, weight: weights.dense * share, hits: episode.dense, relativeScores: true },
    { name: `bm25${suffix}`, weight: weights.bm25 * share, hits: episode.lexical },
  ];
  return {
    lists,
    anchors: new Map([...episode.dense, ...episode.lexical].map((hit) => [hit.id, anchor])),
    notes: { centroidMode: decision.mode, centroid: { similarity: decision.similarity, threshold: decision.threshold, reason: decision.reason }, candidates: k },
    details: new Map([...episode.boosts].map(([id, boost]) => [id, { episode: boost }])),
  };
}

/**
 * decideCentroidMode against the query's nearest memory. A list kept to a time range or a filter may not hold the
 * user's nearest memory, and the centroid is of all their memories: its first cosine can only prove the query
 * particular. When it does not, the nearest memory of all is asked for (one neighbour, unfiltered).
 */
async function automaticMode(
  { deps, config }: TextStrategyInput,
  queryVector: Float32Array,
  centroid: Centroid | null,
  nearest: Promise<ScoredId[]>,
  timeRange: TimeFilter | undefined,
): Promise<CentroidDecision> {
  const decision = decideCentroidMode(queryVector, centroid, (await nearest)[0]?.score ?? null);
  if (decision.mode === 'SPECIFIC' || (!timeRange && !config.filter)) return decision;
  const [first] = await deps.vectors.knn(config.scope, { vector: queryVector, k: 1 });
  return decideCentroidMode(queryVector, centroid, first?.score ?? null);
}

/** How many kNN (and BM25) candidates the semantic path asks for in a centroid mode. */
function candidateCount({ limit, depths }: TextStrategyInput['config'], mode: CentroidMode): number {
  const depth = depths.semantic[mode];
  return Math.max(limit * depth.perLimit, depth.floor);
}

/**
 * The semantic path's BM25 list, optionally kept to a time range. Its depth does not depend on the centroid's
 * decision, so the lexical search can run while the query is being embedded.
 */
function lexicalCandidates({ deps, config, analysis }: TextStrategyInput, timeRange: TimeFilter | undefined): Promise<ScoredId[]> {
  if (analysis.terms.length === 0) return Promise.resolve([]);
  const { depths, limit } = config;
  const k = Math.max(depths.lexical, ...Object.values(depths.semantic).map((depth) => Math.max(limit * depth.perLimit, depth.floor)));
  return deps.vectors.textSearch(config.scope, { terms: analysis.terms, k, timeRange, filter: config.filter });
}
