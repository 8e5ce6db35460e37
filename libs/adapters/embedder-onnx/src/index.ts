export { OnnxEmbedder, createOnnxEmbedder, BGE_QUERY_INSTRUCTION } from './onnx-embedder.js';
export { resolveOnnxEmbedderOptions, type OnnxEmbedderOptions, type OnnxEmbedderSettings } from './options.js';
export { BGE_SMALL_EN_V15_Q, MODEL_DIR_ENV, resolveModelDir, requireModelFiles, modelFiles, findRepoRoot, type ModelFiles } from './model-files.js';
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
