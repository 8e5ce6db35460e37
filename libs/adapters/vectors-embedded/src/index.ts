export { openEmbeddedVectorStores, createEmbeddedVectorStore, createEmbeddedCentroidStore, type EmbeddedVectorStores } from './open.js';
export type { EmbeddedVectorStoreOptions } from './options.js';
