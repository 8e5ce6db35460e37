import { availableParallelism } from 'node:os';
import { ConfigError } from '@memory/platform';
import { ONNX_MODELS, DEFAULT_ONNX_MODEL, onnxModel, type OnnxModelSpec } from './model-catalog.js';
import { MAX_SEQUENCE_TOKENS } from './wordpiece-tokenizer.js';

export interface OnnxEmbedderOptions {
  /** A name from models.json; default its `default` (bge-small-en-v1.5-q). */
  model?: string;
  /** Folder with model.onnx and tokenizer.json; defaults to MEMORY_MODEL_DIR, then <repo>/.cache/models/<model>. */
  modelDir?: string;
  /** ONNX Runtime intra-op threads. */
  threads?: number;
  /**
   * Most texts per model call; default 1. The quantised model scales activations per input tensor
   * (DynamicQuantizeLinear), so in a batch of more than one text each vector shifts slightly (cosine ~0.997)
   * with its neighbours and with padding. One text per call keeps a text's vector a function of the text alone,
   * which replay needs; larger batches are ~1.5x faster on short texts where that does not matter.
   */
  maxBatch?: number;
  /** Most padded tokens per model call, which bounds the memory attention takes on long texts. */
  maxBatchTokens?: number;
}

export interface OnnxEmbedderSettings {
  model: OnnxModelSpec;
  modelDir: string | undefined;
  threads: number;
  maxBatch: number;
  maxBatchTokens: number;
}

// Half the cores, at most 4: the pipeline stages around the embedder need CPU too, and past 4 threads a model
// this small gains little.
const DEFAULT_THREADS = Math.max(1, Math.min(4, Math.floor(availableParallelism() / 2)));

/** Checks every option before the model is loaded, reporting all problems at once. */
export function resolveOnnxEmbedderOptions(options: OnnxEmbedderOptions = {}): OnnxEmbedderSettings {
  const problems: string[] = [];
  const integer = (name: keyof OnnxEmbedderOptions, fallback: number, min: number, max: number): number => {
    const value = options[name];
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max}, got ${String(value)}`);
      return fallback;
    }
    return value;
  };
  const model = ONNX_MODELS.get(options.model ?? DEFAULT_ONNX_MODEL);
  if (!model) problems.push(`model must be one of ${[...ONNX_MODELS.keys()].join(', ')}, got ${String(options.model)}`);
  const settings: OnnxEmbedderSettings = {
    model: model ?? onnxModel(),
    modelDir: options.modelDir,
    threads: integer('threads', DEFAULT_THREADS, 1, 64),
    maxBatch: integer('maxBatch', 1, 1, 1024),
    // At least one full-length sequence must fit, or long texts could never be embedded.
    maxBatchTokens: integer('maxBatchTokens', 8 * MAX_SEQUENCE_TOKENS, MAX_SEQUENCE_TOKENS, 1 << 20),
  };
  if (options.modelDir !== undefined && (typeof options.modelDir !== 'string' || options.modelDir === '')) {
    problems.push('modelDir must be a non-empty path');
  }
  if (problems.length) throw new ConfigError(`invalid onnx embedder options:\n  - ${problems.join('\n  - ')}`, { problems });
  return settings;
}
