export { lexicalTerms } from './terms.js';
export { findIdentifiers } from './identifiers.js';
export { analyseMemory, LEXICAL_ANALYSIS_VERSION, memoryIdentifiers, memoryTerms, type LexicalAnalysis, type LexicalSource } from './memory-text.js';
export { BM25, Bm25Index, bm25Idf, type LexicalHit } from './bm25.js';
export { TopK } from './top-k.js';
