import { ConfigError } from '@memory/platform';

export interface UseEmbedderOptions {
  /**
   * Most texts per model call; default 1. In a batch the graph pads every text to the longest one and masks the
   * padding, which moves each vector by float rounding (up to ~1e-7 per component) depending on its neighbours.
   * One text per call keeps a text's vector a function of the text alone, bit for bit, which replay needs;
   * batches of 16 short texts run about twice as fast, where that does not matter.
   */
  maxBatch?: number;
}

export interface UseEmbedderSettings {
  maxBatch: number;
}

/** Checks the options before the model loads, reporting every problem at once. */
export function resolveUseEmbedderOptions(options: UseEmbedderOptions = {}): UseEmbedderSettings {
  const problems: string[] = [];
  const maxBatch = options.maxBatch ?? 1;
  if (typeof maxBatch !== 'number' || !Number.isInteger(maxBatch) || maxBatch < 1 || maxBatch > 1024) {
    problems.push(`maxBatch must be a whole number from 1 to 1024, got ${String(maxBatch)}`);
  }
  if (problems.length) throw new ConfigError(`invalid use-lite embedder options:\n  - ${problems.join('\n  - ')}`, { problems });
  return { maxBatch };
}
