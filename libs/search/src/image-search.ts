import { analyzeImage, type Ocr } from '@memory/image-analysis';
import { graphIds, type Embedder, type Scope, type VectorStore } from '@memory/ports';
import { clamp01 } from './dynamic-scoring.js';
import { toPayload } from './payload.js';
import type { SearchHit } from './request.js';

export interface ImageSearchDeps {
  vectors: VectorStore;
  visualVectors: VectorStore;
  embedder: Embedder;
  ocr: Ocr;
}

export interface ImageSearchRequest {
  scope: Scope;
  image: Buffer;
  limit: number;
}

/** How much a contextual match (the query image's text against memories' meaning) counts next to a visual one. */
const CONTEXT_WEIGHT = 0.8;

/**
 * Search by image: the query image is read the way ingestion reads images. Its visual descriptor finds images
 * that look alike (cosine of descriptors); the text in it, when there is some, finds memories about the same
 * thing, images or not. A memory found both ways keeps the better of its two scores.
 */
export async function searchByImage(deps: ImageSearchDeps, request: ImageSearchRequest): Promise<SearchHit[]> {
  const k = Math.max(request.limit * 3, 20);
  const features = await analyzeImage(request.image, { now: 0 });
  const scores = new Map<string, number>();
  const keepBest = (id: string, score: number) => scores.set(id, Math.max(scores.get(id) ?? 0, clamp01(score)));

  for (const hit of await deps.visualVectors.knn(request.scope, { vector: Float32Array.from(features.visualDescriptor), k })) keepBest(hit.id, hit.score);
  const text = (await deps.ocr.read(request.image)).text.trim();
  if (text) {
    const [queryVector] = await deps.embedder.embed([text], 'query');
    for (const hit of await deps.vectors.knn(request.scope, { vector: queryVector!, k })) keepBest(hit.id, hit.score * CONTEXT_WEIGHT);
  }
  if (scores.size === 0) return [];

  const memories = new Map((await deps.vectors.get(request.scope, [...scores.keys()])).map((m) => [m.id, m]));
  const anchor = graphIds.user(request.scope);
  const hits: SearchHit[] = [];
  for (const [id, finalScore] of scores) {
    const memory = memories.get(id);
    if (memory) hits.push({ id, finalScore, payload: toPayload(memory), searchedWithNode: anchor });
  }
  hits.sort((a, b) => b.finalScore - a.finalScore || a.id.localeCompare(b.id));
  return hits.slice(0, request.limit);
}
