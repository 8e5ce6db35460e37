export { UseEmbedder, openUseEmbedder } from './use-embedder.js';
export { resolveUseEmbedderOptions, type UseEmbedderOptions, type UseEmbedderSettings } from './options.js';
export { USE_LITE_MODEL, USE_LITE_DIR, requireUseLiteFiles } from './model-package.js';
export { modelInput, MODEL_MAX_TOKENS, MAX_INPUT_CHARS } from './model-input.js';
