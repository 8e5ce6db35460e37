import { graphIds, type GraphNode, type Scope } from '@memory/ports';
import { nothingFound, type SearchDeps, type Strategy, type StrategyResult, type TextStrategyInput } from './strategy.js';

/** How far a second-hop memory (reached through an entity that co-occurs with the anchor) counts next to a direct one. */
const SECOND_HOP_FACTOR = 0.5;
/** Co-occurring entities followed per query, the most shared first: the traversal stays bounded on a dense graph. */
const MAX_SECOND_HOP_ENTITIES = 8;
/** An entity mentioned by more memories than this is too common to follow a second hop from, or to. */
const MAX_MENTIONS_FOR_SECOND_HOP = 200;
/** Automatic routing lets the entity list vote only when its rarest anchor is at least this specific (idf / max idf). */
const MIN_SPECIFICITY_TO_VOTE = 0.5;

const memoryIdOfNode = (nodeId: string) => nodeId.slice('memory:'.length);

/**
 * entity_anchor: the query's spans that name one of the user's entity nodes (people, places, organisations,
 * titles) anchor a traversal of the graph. Memories that mention an anchor score its rarity (idf = ln(1 + N / df),
 * N the user's memories, df those mentioning it), summed over anchors; memories that mention an entity which
 * co-occurs with an anchor score half of that entity's rarity, weighted by how often it co-occurs. Vector
 * similarity plays no part: a memory is found because of whom or what it is about, whatever its words.
 *
 * The list's weight in fusion scales with the rarest anchor's idf against the largest possible one, so a name
 * in every other memory (the user's partner, say) barely moves the ranking while a rare one lifts its memories.
 *
 * Cost: each anchor's df comes from the graph's degree count, before any memory is listed. In automatic routing
 * only specific anchors are listed (specificity >= 0.5 means df <= about sqrt(N): at most ~320 memories at 100k),
 * since a common one could not make the list vote; a common anchor still adds its rarity to listed memories that
 * mention it too. Second hops go from and to entities of at most MAX_MENTIONS_FOR_SECOND_HOP memories. So a query
 * naming the user's partner reads a few counts, not thousands of memories, and the strategy's cost does not grow
 * with N. A forced entity_anchor lists every anchor's memories, however many.
 */
export const entityAnchor: Strategy = { name: 'entity_anchor', run: (input) => anchorOnEntities(input) };

async function anchorOnEntities({ deps, config, analysis, forced, memoryCount }: TextStrategyInput): Promise<StrategyResult> {
  const { scope, limit, depths } = config;
  const weight = config.weights.entity_anchor;
  const empty = nothingFound({ entities: [] });
  if (!deps.graph || analysis.entityKeys.length === 0) return empty;
  const graph = deps.graph;
  const [found, memories] = await Promise.all([graph.findEntities(scope, analysis.entityKeys), memoryCount()]);
  const entities = dropContained(found, scope, analysis.entityKeys);
  if (entities.length === 0) return empty;
  const n = Math.max(memories, 1);
  const idf = (df: number) => Math.log(1 + n / Math.max(df, 1));
  const specificityOf = (df: number) => idf(df) / idf(1);
  const mentionCounts = await graph.degrees(scope, entities.map((e) => e.id), 'mentions');
  const dfOf = (entityId: string) => mentionCounts.get(entityId) ?? 0;
  const specificity = Math.max(...entities.map((e) => specificityOf(dfOf(e.id))));
  // In automatic routing an anchor as common as the user's own partner says nothing about this query: it would
  // only shuffle the semantic ranking, so it does not vote.
  const votes = forced || specificity >= MIN_SPECIFICITY_TO_VOTE;
  const notes = {
    entities: entities.map((entity) => ({ node: entity.id, name: entity.label, type: entity.entityType, memories: dfOf(entity.id) })),
    specificity,
    ...(votes ? {} : { ignored: `anchors too common (specificity ${specificity.toFixed(2)} < ${MIN_SPECIFICITY_TO_VOTE})` }),
  };
  if (!votes) return { ...empty, notes };

  const scores = new Map<string, number>();
  const anchors = new Map<string, { node: string; strength: number }>();
  const credit = (memoryId: string, score: number, node: string) => {
    scores.set(memoryId, (scores.get(memoryId) ?? 0) + score);
    const current = anchors.get(memoryId);
    if (!current || current.strength < score) anchors.set(memoryId, { node, strength: score });
  };
  const listedEntities = forced ? entities : entities.filter((e) => specificityOf(dfOf(e.id)) >= MIN_SPECIFICITY_TO_VOTE);
  const unlisted = new Set(entities.filter((e) => !listedEntities.includes(e)).map((e) => e.id));
  const anchored = await Promise.all(listedEntities.map(async (entity) => ({ entity, memories: await mentioning(graph, scope, entity.id) })));
  for (const { entity, memories } of anchored) for (const memoryId of memories) credit(memoryId, idf(memories.length), entity.id);

  // The entities the anchored memories mention: common anchors credit the memories they share with listed ones,
  // and the rest lead a second hop to memories that need not share a word with the query.
  const anchorIds = new Set(entities.map((e) => e.id));
  const followable = anchored.filter((a) => a.memories.length <= MAX_MENTIONS_FOR_SECOND_HOP);
  const coMentions = new Map<string, { count: number; via: string }>();
  for (const { entity, memories } of followable) {
    const neighbourLists = await Promise.all(memories.map(async (m) => ({ memoryId: m, neighbours: await graph.neighbours(scope, `memory:${m}`, { depth: 1, edgeKinds: ['mentions'] }) })));
    for (const { memoryId, neighbours } of neighbourLists) {
      for (const { node } of neighbours) {
        if (node.kind !== 'entity') continue;
        if (unlisted.has(node.id)) credit(memoryId, idf(dfOf(node.id)), node.id);
        if (anchorIds.has(node.id)) continue;
        const seen = coMentions.get(node.id);
        coMentions.set(node.id, { count: (seen?.count ?? 0) + 1, via: entity.id });
      }
    }
  }
  const candidates = [...coMentions].sort((a, b) => b[1].count - a[1].count || (a[0] < b[0] ? -1 : 1));
  const candidateCounts = candidates.length > 0 ? await graph.degrees(scope, candidates.map(([id]) => id), 'mentions') : new Map<string, number>();
  const followed = candidates.filter(([id]) => (candidateCounts.get(id) ?? 0) <= MAX_MENTIONS_FOR_SECOND_HOP).slice(0, MAX_SECOND_HOP_ENTITIES);
  const secondHop = await Promise.all(followed.map(async ([entityId, { count, via }]) => ({ entityId, count, via, memories: await mentioning(graph, scope, entityId) })));
  const anchoredCount = followable.reduce((sum, a) => sum + a.memories.length, 0);
  for (const { entityId, count, memories } of secondHop) {
    const strength = SECOND_HOP_FACTOR * idf(memories.length) * Math.min(1, count / Math.max(anchoredCount, 1));
    for (const memoryId of memories) if (!scores.has(memoryId) || anchors.get(memoryId)!.node === entityId) credit(memoryId, strength, entityId);
  }

  // The graph knows no filter: the store says which of the scored memories pass it, before the list is cut.
  const passing = config.filter ? new Set(await deps.vectors.matching(scope, [...scores.keys()], config.filter)) : null;
  const hits = [...scores]
    .filter(([id]) => !passing || passing.has(id))
    .map(([id, score]) => ({ id, score }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, Math.max(limit * depths.listed.perLimit, depths.listed.floor));
  return {
    lists: [{ name: 'entity_anchor', weight: weight * specificity, hits }],
    anchors: new Map([...anchors].map(([id, a]) => [id, a.node])),
    notes: { ...notes, secondHop: secondHop.map(({ entityId, memories }) => ({ node: entityId, memories: memories.length })) },
  };
}

async function mentioning(graph: NonNullable<SearchDeps['graph']>, scope: Scope, entityId: string): Promise<string[]> {
  const neighbours = await graph.neighbours(scope, entityId, { depth: 1, edgeKinds: ['mentions'] });
  return neighbours.filter((n) => n.node.kind === 'memory').map((n) => memoryIdOfNode(n.node.id));
}

/** "New York" and "York" both exist: the query meant the longer name. */
function dropContained(entities: GraphNode[], scope: Scope, queryKeys: string[]): GraphNode[] {
  const keyOfNode = new Map(queryKeys.map((key) => [graphIds.entity(scope, key), key]));
  const keys = entities.map((e) => keyOfNode.get(e.id) ?? e.label.toLowerCase());
  return entities.filter((_, i) => !keys.some((other, j) => j !== i && other.length > keys[i]!.length && ` ${other} `.includes(` ${keys[i]} `)));
}
