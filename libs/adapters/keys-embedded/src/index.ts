import { ConfigError } from '@memory/platform';
import type { DataKeyStore } from '@memory/ports';
import { EmbeddedKeyStore } from './key-store.js';

export interface EmbeddedKeyStoreOptions {
  /** Directory of the LMDB environment; created if missing. */
  dir: string;
}

export function openEmbeddedKeyStore(options: EmbeddedKeyStoreOptions): Promise<DataKeyStore> {
  if (typeof options?.dir !== 'string' || options.dir.trim() === '') {
    throw new ConfigError('invalid embedded key store options: dir must be a non-empty path', { problems: ['dir must be a non-empty path'] });
  }
  return EmbeddedKeyStore.open(options.dir);
}
