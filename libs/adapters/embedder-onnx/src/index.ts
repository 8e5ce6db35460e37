export { OnnxEmbedder, createOnnxEmbedder } from './onnx-embedder.js';
export { resolveOnnxEmbedderOptions, type OnnxEmbedderOptions, type OnnxEmbedderSettings } from './options.js';
export {
  ONNX_MODELS,
  DEFAULT_ONNX_MODEL,
  EMBEDDING_MODEL_ENV,
  onnxModel,
  embeddingModelOf,
  type OnnxModelSpec,
  type ModelFileSource,
} from './model-catalog.js';
export { MODEL_DIR_ENV, resolveModelDir, requireModelFiles, modelFiles, findRepoRoot, type ModelFiles } from './model-files.js';
export {
  parseTokenizerJson,
  createWordPieceTokenizer,
  normalizeBertText,
  splitBertWords,
  wordPieces,
  MAX_SEQUENCE_TOKENS,
  type WordPieceTokenizer,
  type WordPieceConfig,
  type BertNormalizerOptions,
} from './wordpiece-tokenizer.js';
export { EmbedderThread, createOnnxEmbedderThread } from './embedder-thread.js';
