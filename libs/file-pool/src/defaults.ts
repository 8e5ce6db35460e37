import { availableParallelism } from 'node:os';

/** One core stays for the service itself: the HTTP edge, the text path of the pipeline and the embedding model. */
export function defaultFileWorkers(cores = availableParallelism()): number {
  return Math.max(1, cores - 1);
}

export const FILE_POOL_DEFAULTS = Object.freeze({
  /** A scanned PDF of about 60 pages renders and OCRs in this much CPU time. */
  timeLimitMs: 120_000,
  /** The OCR models take about 300 MB of it and reading an ordinary photo up to about 750 MB more. */
  memoryLimitMb: 1536,
});
