import { ConfigError } from '@memory/platform';

export interface EmbeddedJobStoreOptions {
  /** Directory of the LMDB environment; created if missing. */
  dir: string;
}

/** Checks the options before anything touches the disk. */
export function resolveJobStoreOptions(options: EmbeddedJobStoreOptions): Required<EmbeddedJobStoreOptions> {
  if (typeof options?.dir !== 'string' || options.dir.trim() === '') {
    throw new ConfigError('invalid embedded job store options: dir must be a non-empty path', { problems: ['dir must be a non-empty path'] });
  }
  return { dir: options.dir };
}
