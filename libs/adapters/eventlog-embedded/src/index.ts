export { createEmbeddedEventLog } from './event-log.js';
export type { EmbeddedEventLogOptions } from './options.js';
