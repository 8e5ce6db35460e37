import { ConfigError } from '@memory/platform';

export interface EmbeddedGraphStoreOptions {
  /** Directory of the LMDB environment; created if missing. */
  dir: string;
}

/** Checks the options before anything touches the disk. */
export function resolveGraphStoreOptions(options: EmbeddedGraphStoreOptions): Required<EmbeddedGraphStoreOptions> {
  if (typeof options?.dir !== 'string' || options.dir.trim() === '') {
    throw new ConfigError('invalid embedded graph store options: dir must be a non-empty path', { problems: ['dir must be a non-empty path'] });
  }
  return { dir: options.dir };
}
