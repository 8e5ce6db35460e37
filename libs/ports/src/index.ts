export * from './event-log.js';
export * from './schema-registry.js';
export * from './memory.js';
export * from './vector-store.js';
export * from './graph-store.js';
export * from './job-store.js';
export * from './embedder.js';
export * from './blob-store.js';
