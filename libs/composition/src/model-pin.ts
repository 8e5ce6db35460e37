import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryServiceError } from '@memory/platform';
import { modelTag, type EmbeddingModel } from '@memory/ports';

/** Where a data dir records the model its vectors come from: vectors of two models cannot be searched together. */
const MODEL_PIN = 'embedding-model.json';

export function readPinnedModel(dataDir: string): EmbeddingModel | null {
  const path = join(dataDir, MODEL_PIN);
  if (!existsSync(path)) return null;
  let pinned: Partial<EmbeddingModel> | null = null;
  try {
    pinned = JSON.parse(readFileSync(path, 'utf8')) as Partial<EmbeddingModel>;
  } catch {
    // reported below with the others
  }
  if (typeof pinned?.name !== 'string' || typeof pinned.version !== 'string' || !Number.isInteger(pinned.dimensions)) {
    throw new MemoryServiceError('EMBEDDER.MODEL_PIN_INVALID', `${path} should hold {"name", "version", "dimensions"} of the model this data dir's vectors come from`);
  }
  return { name: pinned.name, version: pinned.version, dimensions: pinned.dimensions as number };
}

/** Records the model of a new data dir; refuses to run another model over an existing one. */
export function pinModel(dataDir: string, pinned: EmbeddingModel | null, model: EmbeddingModel): void {
  if (!pinned) {
    const path = join(dataDir, MODEL_PIN);
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(`${path}.tmp`, JSON.stringify({ name: model.name, version: model.version, dimensions: model.dimensions }) + '\n');
    renameSync(`${path}.tmp`, path);
    return;
  }
  if (modelTag(pinned) === modelTag(model) && pinned.dimensions === model.dimensions) return;
  throw new MemoryServiceError(
    'EMBEDDER.MODEL_CHANGED',
    `${dataDir} holds vectors of ${modelTag(pinned)} (${pinned.dimensions}-d), but the embedder is now ${modelTag(model)} (${model.dimensions}-d), ` +
      'and vectors of two models cannot be searched together: configure the model the data dir was created with ' +
      '(MEMORY_EMBEDDER, MEMORY_MODEL_DIR) or start with an empty MEMORY_DATA_DIR',
    { details: { pinned, configured: model } },
  );
}
