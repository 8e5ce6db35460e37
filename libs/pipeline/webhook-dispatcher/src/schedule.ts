import { backoffDelay } from '@memory/platform';
import type { WebhookDelivery } from '@memory/ports';

export interface RetrySchedule {
  /** Ceiling of the first retry's delay; each retry doubles it up to maxDelayMs (full jitter). */
  initialDelayMs: number;
  maxDelayMs: number;
  /** How long failed attempts are retried, from when the event happened (or a redelivery was asked for). */
  windowMs: number;
}

export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = { initialDelayMs: 30_000, maxDelayMs: 3_600_000, windowMs: 24 * 3_600_000 };

/** What one attempt leaves: delivered on a 2xx, else another attempt after a backoff, or failed once the window is over. */
export function afterAttempt(delivery: WebhookDelivery, outcome: { status: number | null; error: string | null }, now: number, schedule: RetrySchedule, random = Math.random): WebhookDelivery {
  const attempts = delivery.attempts + 1;
  const base = { ...delivery, attempts, lastStatus: outcome.status, lastError: outcome.error, updatedAt: now };
  if (outcome.status !== null && outcome.status >= 200 && outcome.status < 300) return { ...base, state: 'delivered', nextAttemptAt: null, lastError: null };
  const nextAttemptAt = now + Math.max(1, backoffDelay(attempts - 1, { initialDelayMs: schedule.initialDelayMs, maxDelayMs: schedule.maxDelayMs, factor: 2 }, random));
  if (nextAttemptAt > delivery.retryUntil) return { ...base, state: 'failed', nextAttemptAt: null };
  return { ...base, state: 'pending', nextAttemptAt };
}
