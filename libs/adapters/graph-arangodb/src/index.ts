export { openArangoGraphStore, dropArangoGraphStore } from './open.js';
export { resolveArangoGraphStoreOptions, type ArangoGraphStoreOptions, type ResolvedArangoGraphStoreOptions } from './options.js';
