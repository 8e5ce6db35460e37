import { SEARCH_LIMITS } from '@memory/search';

/** Documented request limits (README, "Limits"). Exceeding one is a 400 or 413 with a stable error code. */
export const REQUEST_LIMITS = {
  /** source.content, in characters. */
  textMaxChars: 32_000,
  userContextMaxChars: 4_000,
  /** Whole JSON body of text ingestion and search, in bytes. */
  jsonBodyBytes: 256 * 1024,
  endUserIdMaxChars: 128,
  ...SEARCH_LIMITS,
} as const;
