export { openEmbeddedVectorStores, createEmbeddedVectorStore, finishVectorStoreCompaction, createEmbeddedCentroidStore, type EmbeddedVectorStores } from './open.js';
export type { EmbeddedVectorStoreOptions } from './options.js';
