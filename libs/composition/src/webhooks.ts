import { DEFAULT_RETRY_SCHEDULE, type RetrySchedule } from '@memory/stage-webhook-dispatcher/schedule';
import type { ServiceConfig } from './config.js';

/** The retry schedule of webhook deliveries: the default, with the configured first delay. */
export function webhookSchedule(config: ServiceConfig): RetrySchedule {
  return { ...DEFAULT_RETRY_SCHEDULE, initialDelayMs: config.webhooks.retryInitialMs };
}
