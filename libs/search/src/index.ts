export * from './request.js';
export * from './dynamic-scoring.js';
export * from './payload.js';
export * from './search-service.js';
export * from './image-search.js';
