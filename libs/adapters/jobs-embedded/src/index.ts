import { finishPendingCompaction } from '@memory/platform';
import type { JobStore } from '@memory/ports';
import { EmbeddedJobStore } from './job-store.js';
import { resolveJobStoreOptions, type EmbeddedJobStoreOptions } from './options.js';

export type { EmbeddedJobStoreOptions } from './options.js';

/** Compacts the job store in `dir` if a process removed records and died before closing it. */
export function finishJobStoreCompaction(dir: string): Promise<void> {
  return finishPendingCompaction(dir, () => EmbeddedJobStore.openEnv(dir));
}

export function createEmbeddedJobStore(options: EmbeddedJobStoreOptions): JobStore {
  return EmbeddedJobStore.open(resolveJobStoreOptions(options).dir);
}
