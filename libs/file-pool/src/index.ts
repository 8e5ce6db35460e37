export { createFilePool, defaultFileWorkers, FILE_POOL_DEFAULTS, type FilePool, type FilePoolOptions } from './pool.js';
export type { DocumentPage, DocumentPages, ImageReading } from './tasks.js';
