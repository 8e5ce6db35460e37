import { ConfigError, createLogger, type Logger } from '@memory/platform';

export interface EmbeddedEventLogOptions {
  /** Directory holding the LMDB environment; created if missing. One process at a time (see EVENTLOG.DIR_LOCKED). */
  dir: string;
  /** Partitions for a TopicSpec that gives none (0 or missing). Default 8, as in the distributed mode. */
  defaultPartitions?: number;
  /** Safety net for consumers: how often an idle partition re-reads even without an in-process wake-up. */
  pollIntervalMs?: number;
  /** Backoff before a failed batch is delivered again: full jitter, doubling from initial up to max. */
  retryInitialMs?: number;
  retryMaxMs?: number;
  /** Largest batch when a consumer gives no maxBatchSize. */
  defaultMaxBatchSize?: number;
  logger?: Logger;
}

export type ResolvedOptions = Required<EmbeddedEventLogOptions>;

/** Checks every option before anything touches the disk, reporting all problems at once. */
export function resolveOptions(options: EmbeddedEventLogOptions): ResolvedOptions {
  const problems: string[] = [];
  if (typeof options.dir !== 'string' || options.dir.trim() === '') problems.push('dir must be a non-empty path');
  const positive = (name: keyof EmbeddedEventLogOptions, fallback: number): number => {
    const value = options[name] ?? fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
      problems.push(`${name} must be a positive whole number, got ${String(value)}`);
      return fallback;
    }
    return value;
  };
  const resolved: ResolvedOptions = {
    dir: options.dir,
    defaultPartitions: positive('defaultPartitions', 8),
    pollIntervalMs: positive('pollIntervalMs', 500),
    retryInitialMs: positive('retryInitialMs', 100),
    retryMaxMs: positive('retryMaxMs', 5_000),
    defaultMaxBatchSize: positive('defaultMaxBatchSize', 256),
    logger: options.logger ?? createLogger({ component: 'eventlog-embedded' }),
  };
  if (problems.length) throw new ConfigError(`invalid embedded event log options: ${problems.join('; ')}`, { problems });
  return resolved;
}
