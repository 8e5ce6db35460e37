import { resolve } from 'node:path';
import { ConfigReader } from '@memory/platform';

/** Everything the service reads from the environment; the README's configuration table lists the same. */
export function readConfig(env: Record<string, string | undefined> = process.env) {
  const c = new ConfigReader(env);
  const config = {
    port: c.integer('PORT', 8080, { min: 0, max: 65535 }),
    host: c.string('HOST', '0.0.0.0'),
    dataDir: resolve(c.string('MEMORY_DATA_DIR', './data')),
    apiKeys: c.string('MEMORY_API_KEYS'),
    partitions: c.integer('MEMORY_PARTITIONS', 8, { min: 1, max: 256 }),
    embedder: c.oneOf('MEMORY_EMBEDDER', ['onnx', 'huggingface'] as const, 'onnx'),
    modelDir: c.string('MEMORY_MODEL_DIR'),
    /** 0: the embedder's default (half the cores, at most 4). */
    embedThreads: c.integer('MEMORY_EMBED_THREADS', 0, { min: 0, max: 64 }),
    embedBatch: c.integer('MEMORY_EMBED_BATCH', 32, { min: 1, max: 512 }),
    huggingface: {
      token: c.string('HF_TOKEN'),
      model: c.string('MEMORY_HF_MODEL'),
      endpointUrl: c.string('MEMORY_HF_ENDPOINT'),
      dimensions: c.integer('MEMORY_HF_DIMENSIONS', 384, { min: 1, max: 8192 }),
    },
  };
  if (config.embedder === 'huggingface' && !config.huggingface.token) c.problem('MEMORY_EMBEDDER=huggingface needs HF_TOKEN');
  c.done();
  return config;
}

export type MemorydConfig = ReturnType<typeof readConfig>;
