import { ConfigError } from '@memory/platform';

export interface EmbeddedGraphStoreOptions {
  /** Directory of the LMDB environment; created if missing. */
  dir: string;
  /**
   * Compact the file on close after deletes (default true), so nothing deleted stays in freed pages. Only for a
   * process that is the file's only user: a file replaced under another process's open environment loses its writes.
   */
  compactAfterDeletes?: boolean;
}

/** Checks the options before anything touches the disk. */
export function resolveGraphStoreOptions(options: EmbeddedGraphStoreOptions): Required<EmbeddedGraphStoreOptions> {
  if (typeof options?.dir !== 'string' || options.dir.trim() === '') {
    throw new ConfigError('invalid embedded graph store options: dir must be a non-empty path', { problems: ['dir must be a non-empty path'] });
  }
  return { dir: options.dir, compactAfterDeletes: options.compactAfterDeletes ?? true };
}
