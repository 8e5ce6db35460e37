import type { JobStore } from '@memory/ports';
import { EmbeddedJobStore } from './job-store.js';
import { resolveJobStoreOptions, type EmbeddedJobStoreOptions } from './options.js';

export type { EmbeddedJobStoreOptions } from './options.js';

export function createEmbeddedJobStore(options: EmbeddedJobStoreOptions): JobStore {
  return EmbeddedJobStore.open(resolveJobStoreOptions(options).dir);
}
