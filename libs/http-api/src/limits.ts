import { IMAGE_LIMITS } from '@memory/image-analysis/limits';
import { METADATA_LIMITS } from '@memory/ports';
import { SEARCH_LIMITS } from '@memory/search/limits';

/** Documented request limits (README, "Limits"). Exceeding one is a 400 or 413 with a stable error code. */
export const REQUEST_LIMITS = {
  /** source.content, in characters. */
  textMaxChars: 32_000,
  userContextMaxChars: 4_000,
  /** Whole JSON body of text ingestion and search, in bytes. */
  jsonBodyBytes: 256 * 1024,
  endUserIdMaxChars: 128,
  /** An id in a path or query (job, memory, webhook, delivery): what the service issues is well under this. */
  idMaxChars: 256,
  /** JSON body of image ingestion and image search: the image's base64 (4/3 of its bytes) plus the other fields. */
  imageJsonBodyBytes: Math.ceil((IMAGE_LIMITS.maxBytes * 4) / 3) + 64 * 1024,
  image: IMAGE_LIMITS,
  /** A PDF upload, in bytes (configurable: MEMORY_MAX_DOCUMENT_BYTES). */
  documentMaxBytes: 50 * 1024 * 1024,
  ...SEARCH_LIMITS,
  /** The `metadata` object of an ingestion request (metadata.ts). */
  metadata: METADATA_LIMITS,
  /** GET /v1/jobs/{id}?waitMs: the longest long poll. */
  jobWaitMaxMs: 30_000,
  /** GET /v1/memories. */
  list: { defaultLimit: 20, maxLimit: 100, maxJobIdChars: 256, maxMemoryTypes: 20 },
} as const;
