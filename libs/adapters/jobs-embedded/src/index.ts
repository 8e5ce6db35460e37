import { finishPendingCompaction } from '@memory/platform';
import type { IdempotencyStore, JobStore, WebhookStore } from '@memory/ports';
import { EmbeddedIdempotencyStore } from './idempotency-store.js';
import { EmbeddedJobStore } from './job-store.js';
import { EmbeddedWebhookStore } from './webhook-store.js';
import { resolveJobStoreOptions, type EmbeddedJobStoreOptions } from './options.js';

export type { EmbeddedJobStoreOptions } from './options.js';

/** Compacts the job store in `dir` if a process removed records and died before closing it. */
export function finishJobStoreCompaction(dir: string): Promise<void> {
  return finishPendingCompaction(dir, () => EmbeddedJobStore.openEnv(dir));
}

export function createEmbeddedJobStore(options: EmbeddedJobStoreOptions): JobStore {
  return EmbeddedJobStore.open(resolveJobStoreOptions(options).dir);
}

/** Compacts the idempotency store in `dir` if a process forgot records and died before closing it. */
export function finishIdempotencyStoreCompaction(dir: string): Promise<void> {
  return finishPendingCompaction(dir, () => EmbeddedIdempotencyStore.openEnv(dir));
}

/** Compacts the webhook store in `dir` if a process forgot records and died before closing it. */
export function finishWebhookStoreCompaction(dir: string): Promise<void> {
  return finishPendingCompaction(dir, () => EmbeddedWebhookStore.openEnv(dir));
}

/** Idempotency keys of the requests that create jobs, in an LMDB environment of their own (options as the job store's). */
export function createEmbeddedIdempotencyStore(options: EmbeddedJobStoreOptions): IdempotencyStore {
  return EmbeddedIdempotencyStore.open(resolveJobStoreOptions(options).dir);
}

/** Webhook endpoints and their delivery queue, in an LMDB environment of their own (options as the job store's). */
export function createEmbeddedWebhookStore(options: EmbeddedJobStoreOptions): WebhookStore {
  return EmbeddedWebhookStore.open(resolveJobStoreOptions(options).dir);
}
