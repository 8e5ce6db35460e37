export { lexicalTerms } from './terms.js';
export { findIdentifiers } from './identifiers.js';
export { memoryIdentifiers, memoryTerms, type LexicalSource } from './memory-text.js';
export { BM25, Bm25Index, type LexicalHit } from './bm25.js';
export { TopK } from './top-k.js';
