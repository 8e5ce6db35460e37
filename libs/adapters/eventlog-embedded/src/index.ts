export { createEmbeddedEventLog } from './event-log.js';
export type { EmbeddedEventLogOptions } from './options.js';
export { murmur2, partitionFor } from './partitioner.js';
