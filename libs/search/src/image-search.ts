import type { FilePool } from '@memory/file-pool';
import { graphIds, type Embedder, type MemoryFilter, type Scope, type VectorStore } from '@memory/ports';
import { FUSION_METHODS, type FusionMethod } from './fusion.js';
import { toPayload } from './payload.js';
import { bestFirst } from './rerankers/index.js';
import type { SearchHit } from './response.js';
import { candidatesOf } from './search.js';
import type { Strategy } from './strategies/strategy.js';

export interface ImageSearchDeps {
  vectors: VectorStore;
  visualVectors: VectorStore;
  embedder: Embedder;
  /** The query image is decoded and read in the file workers, within their limits, like an ingested one. */
  files: Pick<FilePool, 'imageFeatures' | 'imageText'>;
}

export interface ImageSearchConfig {
  scope: Scope;
  image: Buffer;
  limit: number;
  /** Only memories passing it, in both stores' kNN (see filters.ts). */
  filter?: MemoryFilter;
}

interface ImageStrategyInput {
  deps: ImageSearchDeps;
  config: ImageSearchConfig;
  /** Candidates each list asks for. */
  k: number;
}

/** Images that look alike: the cosine of the visual descriptors ingestion stored. */
const visualSimilarity: Strategy<ImageStrategyInput> = {
  name: 'visual_similarity',
  async run({ deps, config, k }) {
    const features = await deps.files.imageFeatures(config.image, { now: 0 });
    const hits = await deps.visualVectors.knn(config.scope, { vector: Float32Array.from(features.visualDescriptor), k, filter: config.filter });
    return { lists: [{ name: 'visual_similarity', weight: IMAGE_RECIPE.weights.visual_similarity, hits }], anchors: new Map(), notes: {} };
  },
};

/** Memories about what the image's text says, images or not: the text read from it, embedded as a query. */
const imageText: Strategy<ImageStrategyInput> = {
  name: 'image_text',
  async run({ deps, config, k }) {
    const text = (await deps.files.imageText(config.image)).text.trim();
    if (!text) return { lists: [], anchors: new Map(), notes: {} };
    const [queryVector] = await deps.embedder.embed([text], 'query');
    const hits = await deps.vectors.knn(config.scope, { vector: queryVector!, k, filter: config.filter });
    return { lists: [{ name: 'image_text', weight: IMAGE_RECIPE.weights.image_text, hits }], anchors: new Map(), notes: {} };
  },
};

export const IMAGE_STRATEGIES = { visual_similarity: visualSimilarity, image_text: imageText } as const;

/** The one recipe of search by image: a contextual match counts a little less than a visual one. */
export const IMAGE_RECIPE = {
  strategies: ['visual_similarity', 'image_text'] as const,
  weights: { visual_similarity: 1, image_text: 0.8 },
  depth: { perLimit: 3, floor: 20 },
  fusion: 'best_score' as FusionMethod,
};

/**
 * Search by image: the query image read the way ingestion reads images, its strategies run in turn, their
 * lists fused once (a memory found both ways keeps the better score), no reranker.
 */
export async function searchByImage(deps: ImageSearchDeps, config: ImageSearchConfig): Promise<SearchHit[]> {
  const input = { deps, config, k: Math.max(config.limit * IMAGE_RECIPE.depth.perLimit, IMAGE_RECIPE.depth.floor) };
  // In turn, not concurrently: both read the image with CPU-bound code (sharp, then the OCR model, whose first call
  // loads it), and the distributed search app's first image search answered a transient 503 in CI when they overlapped.
  const results = [];
  for (const name of IMAGE_RECIPE.strategies) results.push(await IMAGE_STRATEGIES[name].run(input));
  const fused = FUSION_METHODS[IMAGE_RECIPE.fusion](results.flatMap((result) => result.lists));
  const ranked = bestFirst(await candidatesOf(deps.vectors, config.scope, fused), config.limit);
  const anchor = graphIds.user(config.scope);
  return ranked.map((candidate) => ({ id: candidate.id, finalScore: candidate.score, payload: toPayload(candidate.memory), searchedWithNode: anchor }));
}
