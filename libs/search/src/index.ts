export * from './request.js';
export * from './dynamic-scoring.js';
export * from './payload.js';
export * from './search-service.js';
export * from './image-search.js';
export { fuse, FUSION_DEFAULTS, type RankedList, type Fused } from './fusion.js';
export { planSearch, ROUTING_WEIGHTS } from './routing.js';
export { analyseQuery, type QueryAnalysis } from './query-analysis.js';
export { decideCentroidMode, MIN_CENTROID_MEMBERS, type CentroidMode } from './centroid-mode.js';
