export { HostedEmbedder, createHostedEmbedder } from './hosted-embedder.js';
export {
  resolveHostedEmbedderOptions,
  DEFAULT_HOSTED_MODEL,
  BGE_QUERY_INSTRUCTION,
  type HostedEmbedderOptions,
  type HostedEmbedderSettings,
  type TokenPooling,
} from './options.js';
export { responseToUnitVectors, l2Normalize } from './response-vectors.js';
export { mapHostedError } from './error-map.js';
