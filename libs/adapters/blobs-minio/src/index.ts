import type { BlobStore } from '@memory/ports';
import { MinioBlobStore } from './minio-blob-store.js';
import { resolveMinioBlobStoreOptions, type MinioBlobStoreOptions } from './options.js';

export { minioBlobStoreOptionsFromEnv, type MinioBlobStoreOptions } from './options.js';

/** A BlobStore on an S3-compatible server (MinIO locally); validates the options, then creates the bucket if missing. */
export async function openMinioBlobStore(options: MinioBlobStoreOptions): Promise<BlobStore> {
  return MinioBlobStore.open(resolveMinioBlobStoreOptions(options));
}
