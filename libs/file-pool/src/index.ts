export { createFilePool, type FilePool, type FilePoolOptions } from './pool.js';
export { defaultFileWorkers, FILE_POOL_DEFAULTS } from './defaults.js';
export type { DocumentPage, DocumentPages, ImageReading } from './tasks.js';
