import { ConfigError } from '@memory/platform';

export interface FsBlobStoreOptions {
  /** Root directory of the store; created if missing. */
  dir: string;
}

/** Checks the options before anything touches the disk. */
export function resolveFsBlobStoreOptions(options: FsBlobStoreOptions): Required<FsBlobStoreOptions> {
  if (typeof options?.dir !== 'string' || options.dir.trim() === '') {
    throw new ConfigError('invalid filesystem blob store options: dir must be a non-empty path', { problems: ['dir must be a non-empty path'] });
  }
  return { dir: options.dir };
}
