import { graphIds, type Embedder, type VectorStore } from '@memory/ports';
import { clamp01, dynamicScore } from './dynamic-scoring.js';
import { toPayload } from './payload.js';
import type { SearchHit, SearchRequest } from './request.js';

export interface SearchDeps {
  vectors: VectorStore;
  embedder: Embedder;
  /** Search may read the clock (for recency); pipeline stages never do. */
  now?: () => number;
}

/**
 * Semantic search over one end user's memories: the query is embedded and matched by cosine similarity, then
 * optionally re-ranked by dynamic scoring. The four named strategies and automatic routing plug in here.
 */
export async function searchMemories(deps: SearchDeps, request: SearchRequest): Promise<SearchHit[]> {
  const [queryVector] = await deps.embedder.embed([request.query], 'query');
  const candidates = await deps.vectors.knn(request.scope, { vector: queryVector!, k: Math.max(request.limit * 3, 20) });
  if (candidates.length === 0) return [];
  const memories = new Map((await deps.vectors.get(request.scope, candidates.map((c) => c.id))).map((m) => [m.id, m]));
  const now = (deps.now ?? Date.now)();
  const anchor = graphIds.user(request.scope);
  const hits: SearchHit[] = [];
  for (const candidate of candidates) {
    const memory = memories.get(candidate.id);
    if (!memory) continue;
    const relevance = clamp01(candidate.score);
    const finalScore = request.useDynamicScoring ? dynamicScore(relevance, memory, now).finalScore : relevance;
    hits.push({ id: memory.id, finalScore, payload: toPayload(memory), searchedWithNode: anchor });
  }
  hits.sort((a, b) => b.finalScore - a.finalScore || a.id.localeCompare(b.id));
  return hits.slice(0, request.limit);
}
