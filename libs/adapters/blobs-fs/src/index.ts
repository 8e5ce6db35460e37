import type { BlobStore } from '@memory/ports';
import { FsBlobStore } from './fs-blob-store.js';
import { resolveFsBlobStoreOptions, type FsBlobStoreOptions } from './options.js';

export type { FsBlobStoreOptions } from './options.js';

/** The embedded default: blobs as files under `options.dir`, created if missing. */
export async function openFsBlobStore(options: FsBlobStoreOptions): Promise<BlobStore> {
  return FsBlobStore.open(resolveFsBlobStoreOptions(options).dir);
}
