import { timedPort, timeStep } from '@memory/platform';
import { graphIds, type Centroid, type Scope, type VectorStore } from '@memory/ports';
import { SEARCH_MODES, type SearchConfig } from './config.js';
import { FUSION_METHODS, type Fused } from './fusion.js';
import { settleImpliedYear } from './implied-year.js';
import { toPayload } from './payload.js';
import { analyseQuery, type QueryAnalysis } from './query-analysis.js';
import { strategiesFor } from './recipes.js';
import { resolveEventRange } from './relative-to-event.js';
import { bestFirst, rerankersFor, runChain, type Candidate, type Ranked, type RerankContext, type VectorCandidate } from './rerankers/index.js';
import type { Routing, SearchHit, SearchResponse } from './response.js';
import { STRATEGIES, type SearchDeps, type StrategyResult, type TextStrategyInput } from './strategies/index.js';

/**
 * Search over one end user's memories, one fixed flow for every recipe:
 *   1. analyse the query (terms, identifiers, entity spans, time) and resolve what needs the user's memories
 *      (a time relative to an event, a year left implied);
 *   2. run the strategies the recipe picks for this query, concurrently;
 *   3. fuse their ranked lists once;
 *   4. hand the best candidates, with their records, to the recipe's chain of rerankers;
 *   5. return payloads, with the routing and, when asked, each result's explanation.
 */
export async function searchMemories(untimed: SearchDeps, config: SearchConfig): Promise<SearchResponse> {
  const deps = timedDeps(untimed);
  const now = (deps.now ?? Date.now)();
  const { analysis, eventAnchor } = await timeStep('analyse', () => resolveQuery(deps.vectors, config, now));

  const strategies = strategiesFor(config, analysis);
  const input = strategyInput(deps, config, analysis);
  const results = await Promise.all(strategies.map((name) => timeStep(`strategy.${name}`, () => STRATEGIES[name].run(input))));
  const fused = await timeStep('fusion', async () => FUSION_METHODS[config.fusion](results.flatMap((result) => result.lists)));

  const routing: Routing = { recipe: config.name, strategies, ...((SEARCH_MODES as readonly string[]).includes(config.name) ? { mode: config.name } : {}) };
  if (analysis.relativeToEvent) routing['relativeToEvent'] = { ...analysis.relativeToEvent, anchorMemory: eventAnchor };
  for (const result of results) Object.assign(routing, result.notes);

  const context: RerankContext = { query: config.query, limit: config.limit, now, centroidMode: routing.centroidMode ?? null, depths: config.depths };
  const { byVector, byRecord } = rerankersFor(config.rerankers, context);
  const pool = byVector.length > 0 ? await withVectors(deps.vectors, config.scope, fused) : null;
  const kept = pool
    ? await timeStep('rerank', async () => runChain(pool, byVector, context))
    : fused.slice(0, config.limit * config.depths.rerank.perLimit + config.depths.rerank.extra);
  const candidates = await candidatesOf(deps.vectors, config.scope, kept);
  const ranked = await timeStep('rerank', async () => bestFirst(runChain(candidates, byRecord, context), config.limit));

  const fusedById = new Map(fused.map((f) => [f.id, f]));
  const data = ranked.map((candidate): SearchHit => {
    const hit: SearchHit = { id: candidate.id, finalScore: candidate.score, payload: toPayload(candidate.memory), searchedWithNode: searchedWithNode(results, candidate.id, config.scope) };
    if (config.explain) hit.explain = explanation(candidate, fusedById.get(candidate.id)!, results, config.fusion);
    return hit;
  });
  return { data, routing };
}

/**
 * The ports a search reads, each call timed as a step (`vectors.knn`, `embedder.embed`, ...) of the search being
 * recorded (see withStepTimings): the breakdown of where a search's time goes. Untimed outside a recording.
 */
function timedDeps(deps: SearchDeps): SearchDeps {
  return {
    ...deps,
    vectors: timedPort('vectors', deps.vectors),
    embedder: timedPort('embedder', deps.embedder),
    ...(deps.centroids ? { centroids: timedPort('centroids', deps.centroids) } : {}),
    ...(deps.graph ? { graph: timedPort('graph', deps.graph) } : {}),
  };
}

/** Step 1: the query read on its own, then the parts of it only the user's memories can settle. */
async function resolveQuery(vectors: VectorStore, config: SearchConfig, now: number): Promise<{ analysis: QueryAnalysis; eventAnchor: string | null }> {
  const analysis = analyseQuery(config.query, { now, timeZone: config.timeZone });
  const eventRange = analysis.relativeToEvent ? await resolveEventRange(vectors, config.scope, analysis.relativeToEvent) : null;
  if (eventRange) analysis.timeRange = eventRange.range;
  if (analysis.timeRange?.yearImplied) analysis.timeRange = await settleImpliedYear(vectors, config.scope, analysis.timeRange);
  return { analysis, eventAnchor: eventRange?.anchor ?? null };
}

function strategyInput(deps: SearchDeps, config: SearchConfig, analysis: QueryAnalysis): TextStrategyInput {
  let vector: Promise<Float32Array> | null = null;
  let centroid: Promise<Centroid | null> | null = null;
  let count: Promise<number> | null = null;
  const userCentroid = () => (centroid ??= deps.centroids ? deps.centroids.get(config.scope) : Promise.resolve(null));
  return {
    deps,
    config,
    analysis,
    forced: config.name === 'forced',
    queryVector: () => (vector ??= deps.embedder.embed([config.query], 'query').then(([embedded]) => embedded!)),
    userCentroid,
    // The centroid counts the memories folded into it, which is the user's memories once the pipeline has drained:
    // idf needs no more, and the semantic path reads the centroid anyway. Counted in the store when there is none.
    memoryCount: () => (count ??= userCentroid().then((found) => found?.memoryCount ?? deps.vectors.count(config.scope))),
  };
}

/** The ranked memories with their records, in the order given; one deleted since it was indexed is left out. */
export async function candidatesOf(vectors: VectorStore, scope: Scope, ranked: ReadonlyArray<Pick<Ranked, 'id' | 'score'> & Partial<Ranked>>): Promise<Candidate[]> {
  const memories = new Map((await vectors.getWithoutVectors(scope, ranked.map((r) => r.id))).map((m) => [m.id, m]));
  return ranked.flatMap(({ id, score, steps }) => {
    const memory = memories.get(id);
    return memory ? [{ id, score, steps: steps ?? {}, memory }] : [];
  });
}

/** Every fused memory with its vector, for the vector rerankers; one deleted since it was indexed is left out. */
async function withVectors(store: VectorStore, scope: Scope, fused: readonly Fused[]): Promise<VectorCandidate[]> {
  const vectors = await store.vectors(scope, fused.map((f) => f.id));
  return fused.flatMap(({ id, score }) => {
    const vector = vectors.get(id);
    return vector ? [{ id, score, vector, steps: {} }] : [];
  });
}

/** The graph node of the strategy that contributed most to this memory (the user's node when none names one). */
function searchedWithNode(results: readonly StrategyResult[], id: string, scope: Scope): string {
  let best: { node: string; share: number } | null = null;
  for (const result of results) {
    const node = result.anchors.get(id);
    if (!node) continue;
    const share = result.lists.reduce((sum, list) => sum + (list.hits.some((hit) => hit.id === id) ? list.weight : 0), 0);
    if (!best || share > best.share) best = { node, share };
  }
  return best?.node ?? graphIds.user(scope);
}

/** options.explain, in the flow's order: each list's rank and score, what strategies add, the fusion, each reranker. */
function explanation(candidate: Candidate, fused: Fused, results: readonly StrategyResult[], method: string): Record<string, unknown> {
  const details = Object.assign({}, ...results.map((result) => result.details?.get(candidate.id) ?? {})) as Record<string, unknown>;
  return { strategies: fused.contributions, ...details, fusion: { method, score: fused.score }, rerankers: candidate.steps, finalScore: candidate.score };
}
