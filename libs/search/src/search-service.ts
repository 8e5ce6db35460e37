import { scoreSentiment } from '@memory/enrichment';
import { graphIds } from '@memory/ports';
import { dynamicScore } from './dynamic-scoring.js';
import { fuse, type Fused } from './fusion.js';
import { settleImpliedYear } from './implied-year.js';
import { toPayload } from './payload.js';
import { analyseQuery, type QueryAnalysis } from './query-analysis.js';
import { resolveEventRange } from './relative-to-event.js';
import type { Routing, SearchHit, SearchRequest, SearchResponse, Strategy } from './request.js';
import { planSearch, type SearchPlan } from './routing.js';
import { speakerFactor, speakerOf, speakersNamed } from './speaker.js';
import { centroidAware, lexicalCandidates } from './strategies/centroid-aware.js';
import { directLookup } from './strategies/direct-lookup.js';
import { entityAnchor } from './strategies/entity-anchor.js';
import { temporalRange } from './strategies/temporal-range.js';
import type { SearchDeps, StrategyContext, StrategyOutcome } from './strategies/types.js';

export type { SearchDeps } from './strategies/types.js';

/** Hybrid mode: how much a memory whose sentiment matches the query's is lifted. */
const SENTIMENT_MATCH_BOOST = 0.1;
/** Fewer time-filtered semantic hits than this many times the limit, and the semantic path also runs unfiltered. */
const TIME_FILTER_FALLBACK = 1;

/**
 * Search over one end user's memories: the query is analysed (identifiers, time range, entity spans, terms),
 * routed to one or several strategies run in parallel (see planSearch), their lists fused (see fuse), and the
 * result optionally re-ranked by dynamic scoring (recency and authority).
 */
export async function searchMemories(deps: SearchDeps, request: SearchRequest): Promise<SearchResponse> {
  const now = (deps.now ?? Date.now)();
  const analysis = analyseQuery(request.query, { now, timeZone: request.timeZone ?? 'UTC' });
  const eventRange = analysis.relativeToEvent ? await resolveEventRange(deps.vectors, request.scope, analysis.relativeToEvent) : null;
  if (eventRange) analysis.timeRange = eventRange.range;
  if (analysis.timeRange?.yearImplied) analysis.timeRange = await settleImpliedYear(deps.vectors, request.scope, analysis.timeRange);
  const plan = planSearch(analysis, request.strategy, request.mode ?? null);
  const context: StrategyContext = { deps, scope: request.scope, limit: request.limit };
  const runs = plan.strategies.includes.bind(plan.strategies);

  const memoryCount = runs('entity_anchor') ? deps.vectors.count(request.scope) : Promise.resolve(0);
  const outcomes: Array<Promise<StrategyOutcome & { strategy: Strategy }>> = [];
  const tag = (strategy: Strategy) => (outcome: StrategyOutcome) => ({ ...outcome, strategy });
  if (runs('direct_lookup')) outcomes.push(directLookup(context, analysis, plan.weights.direct_lookup).then(tag('direct_lookup')));
  if (runs('temporal_range')) outcomes.push(temporalRange(context, analysis, plan.weights.temporal_range).then(tag('temporal_range')));
  if (runs('entity_anchor')) outcomes.push(memoryCount.then((n) => entityAnchor(context, analysis, plan.weights.entity_anchor, n, request.strategy === 'entity_anchor')).then(tag('entity_anchor')));
  if (runs('centroid_aware')) outcomes.push(semanticPath(context, analysis, plan, request.query).then(tag('centroid_aware')));
  const results = await Promise.all(outcomes);

  const routing: Routing = { strategies: plan.strategies, ...(request.mode ? { mode: request.mode } : {}) };
  if (analysis.relativeToEvent) routing['relativeToEvent'] = { ...analysis.relativeToEvent, anchorMemory: eventRange?.anchor ?? null };
  for (const result of results) Object.assign(routing, result.notes);
  const fused = fuse(results.flatMap((r) => r.lists));
  const anchorOf = (id: string) => {
    // The node of the strategy that contributed most to this memory.
    let best: { node: string; share: number } | null = null;
    for (const result of results) {
      const node = result.anchors.get(id);
      if (!node) continue;
      const share = result.lists.reduce((sum, list) => sum + (list.hits.some((h) => h.id === id) ? list.weight : 0), 0);
      if (!best || share > best.share) best = { node, share };
    }
    return best?.node ?? graphIds.user(request.scope);
  };
  const querySentiment = plan.matchSentiment ? scoreSentiment(request.query, new Set()).label : null;
  const detailsOf = (id: string) => Object.assign({}, ...results.map((r) => r.details?.get(id) ?? {})) as Record<string, unknown>;
  const hits = await hydrate(deps, request, fused, anchorOf, detailsOf, now, querySentiment);
  return { data: hits, routing };
}

/**
 * The semantic path (centroid_aware), kept to the query's time range when it has one. When the range leaves fewer
 * memories than asked for, its words may not have been a date after all ("May" the name), so the unfiltered
 * search ranks too, at half weight.
 */
async function semanticPath(context: StrategyContext, analysis: QueryAnalysis, plan: SearchPlan, query: string): Promise<StrategyOutcome> {
  const embedding = context.deps.embedder.embed([query], 'query');
  const range = plan.filterSemanticByTime && analysis.timeRange ? { from: analysis.timeRange.from, to: analysis.timeRange.to } : undefined;
  // Asked before the embedding is awaited: BM25 runs on this thread while the model's thread embeds the query.
  const lexical = lexicalCandidates(context, analysis, range);
  // When the embedding fails first, nobody awaits the lexical search: its own failure must not go unhandled.
  lexical.catch(() => undefined);
  const [queryVector] = await embedding;
  const weights = { dense: plan.weights.dense, bm25: plan.weights.bm25 };
  const mode = plan.centroidMode ? { mode: plan.centroidMode } : {};
  if (!range) return centroidAware(context, analysis, queryVector!, weights, { ...mode, lexical });
  const filtered = await centroidAware(context, analysis, queryVector!, weights, { ...mode, timeRange: range, lexical });
  const found = new Set(filtered.lists.flatMap((l) => l.hits.map((h) => h.id)));
  if (found.size >= context.limit * TIME_FILTER_FALLBACK) return filtered;
  const open = await centroidAware(context, analysis, queryVector!, { dense: weights.dense / 2, bm25: weights.bm25 / 2 }, mode);
  return {
    ...filtered,
    lists: [...filtered.lists, ...open.lists.map((l) => ({ ...l, name: `${l.name}_unfiltered` }))],
    anchors: new Map([...open.anchors, ...filtered.anchors]),
  };
}

async function hydrate(
  deps: SearchDeps,
  request: SearchRequest,
  fused: Fused[],
  anchorOf: (id: string) => string,
  detailsOf: (id: string) => Record<string, unknown>,
  now: number,
  querySentiment: string | null,
): Promise<SearchHit[]> {
  // Dynamic scoring moves a memory by at most a quarter of its score, the speaker factor by under a third: twice
  // the limit and 20 more hold the memories that could reach the top (LoCoMo's recall is the same with 3 and 4
  // times the limit).
  const candidates = fused.slice(0, request.limit * 2 + 20);
  const memories = new Map((await deps.vectors.get(request.scope, candidates.map((c) => c.id))).map((m) => [m.id, m]));
  const speakers = new Map([...memories.values()].map((m) => [m.id, speakerOf(m.originalContent)]));
  const namedSpeakers = speakersNamed(request.query, speakers.values());
  const hits: Array<SearchHit & { createdAt: number }> = [];
  for (const candidate of candidates) {
    const memory = memories.get(candidate.id);
    if (!memory) continue; // deleted since it was indexed
    const sentimentMatch = querySentiment !== null && querySentiment !== 'neutral' && memory.sentiment === querySentiment;
    const speakerWeight = speakerFactor(speakers.get(memory.id) ?? null, namedSpeakers);
    const relevance = Math.min(1, candidate.score * (sentimentMatch ? 1 + SENTIMENT_MATCH_BOOST : 1) * speakerWeight);
    const factors = request.useDynamicScoring ? dynamicScore(relevance, memory, now) : null;
    const finalScore = factors ? factors.finalScore : relevance;
    hits.push({
      id: memory.id,
      finalScore,
      payload: toPayload(memory),
      searchedWithNode: anchorOf(memory.id),
      createdAt: memory.createdAt,
      ...(request.explain ? { explain: explanation(candidate, detailsOf(candidate.id), relevance, factors, sentimentMatch, speakerWeight) } : {}),
    });
  }
  hits.sort((a, b) => b.finalScore - a.finalScore || b.createdAt - a.createdAt || a.id.localeCompare(b.id));
  return hits.slice(0, request.limit).map(({ createdAt: _createdAt, ...hit }) => hit);
}

function explanation(
  candidate: Fused,
  details: Record<string, unknown>,
  relevance: number,
  factors: ReturnType<typeof dynamicScore> | null,
  sentimentMatch: boolean,
  speakerWeight: number,
): Record<string, unknown> {
  return {
    strategies: candidate.contributions,
    ...details,
    fusion: { score: candidate.score, ...(sentimentMatch ? { sentimentMatch: true } : {}), ...(speakerWeight !== 1 ? { speakerFactor: speakerWeight } : {}), relevance },
    dynamicScoring: factors ? { recency: factors.recency, authority: factors.authority, finalScore: factors.finalScore } : null,
  };
}


