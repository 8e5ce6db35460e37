import { ConfigError } from '@memory/platform';

export interface EmbeddedVectorStoreOptions {
  /**
   * Directory of the LMDB environment; created if missing. One process per directory: the in-memory kNN index
   * mirrors only the writes of the process that holds it.
   */
  dir: string;
  /**
   * Upper bound on vectors kept in the in-memory kNN indexes across all end users (default 1,000,000, about 1.5 GB
   * at 384 dimensions). Least recently used users are dropped past it and reloaded from disk on their next query;
   * the index of the user being queried is always kept, however large.
   */
  maxCachedVectors?: number;
}

export type ResolvedVectorStoreOptions = Required<EmbeddedVectorStoreOptions>;

/** Checks every option before anything touches the disk, reporting all problems at once. */
export function resolveVectorStoreOptions(options: EmbeddedVectorStoreOptions): ResolvedVectorStoreOptions {
  const problems: string[] = [];
  if (typeof options?.dir !== 'string' || options.dir.trim() === '') problems.push('dir must be a non-empty path');
  const maxCachedVectors = options?.maxCachedVectors ?? 1_000_000;
  if (!Number.isInteger(maxCachedVectors) || maxCachedVectors < 1) {
    problems.push(`maxCachedVectors must be a positive whole number, got ${String(maxCachedVectors)}`);
  }
  if (problems.length) throw new ConfigError(`invalid embedded vector store options: ${problems.join('; ')}`, { problems });
  return { dir: options.dir, maxCachedVectors };
}
