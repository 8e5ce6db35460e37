export * from './catalog.js';
export * from './codec.js';
export * from './ids.js';
export * from './sealing.js';
export * from './generated/events.js';
export * from './partitioning.js';
export { parseSchema, type ParsedSchema } from './schema-text.js';
export * from './job-status.js';
