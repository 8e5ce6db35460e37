export * from './errors.js';
export * from './retry.js';
export * from './logger.js';
export * from './config.js';
export * from './lmdb-errors.js';
export * from './lmdb-compaction.js';
export * from './concurrency.js';
export { seededRandom } from './seeded-random.js';
export * from './resident-memory.js';
