export { createEnricher, MAX_SYNONYMS, SYNONYMS_PER_KEYWORD } from './enricher.js';
export { MEMORY_TYPES, TEXT_MEMORY_TYPES, isMemoryType } from './memory-types.js';
export type { MemoryType, TextMemoryType } from './memory-types.js';
export { entityKey } from './entities.js';
export { MOVIE_GENRES, normalizeGenre } from './movies.js';
export { LIFE_AREAS } from './themes.js';
export { LEXNAMES } from './lexnames.js';
export { MAX_KEYWORDS } from './keywords.js';
export type { Enricher, EnricherOptions, EnrichInput, Enrichment, Entity, EntityType, SentimentLabel } from './types.js';
