/** The rerankers a recipe can chain after fusion, applied in the recipe's order (see rerankers/index.ts). */
export const RERANKER_NAMES = ['mmr', 'speaker', 'sentiment', 'dynamic_scoring'] as const;
export type RerankerName = (typeof RERANKER_NAMES)[number];
