export * from './metrics.js';
export { sampleSum } from './exposition.js';
