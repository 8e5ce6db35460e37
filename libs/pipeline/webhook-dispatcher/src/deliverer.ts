import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Logger } from '@memory/platform';
import type { WebhookDelivery, WebhookEndpoint, WebhookStore } from '@memory/ports';
import { afterAttempt, type RetrySchedule } from './schedule.js';
import { webhookHeaders } from './signature.js';
import { guardedLookup } from './target.js';

export interface DelivererOptions {
  store: WebhookStore;
  logger: Logger;
  schedule: RetrySchedule;
  allowPrivateTargets: boolean;
  /** How often the queue is read for due deliveries. */
  pollMs?: number;
  /** Longest wait for an endpoint's answer. */
  timeoutMs?: number;
  /** Most attempts under way at once, across every tenant. */
  concurrency?: number;
  /** How long delivered and failed deliveries stay in the delivery log; swept hourly. */
  retentionMs: number;
  now?: () => number;
}

export interface Deliverer {
  stop(): Promise<void>;
}

const USER_AGENT = 'memory-service-webhooks/1';
const SWEEP_EVERY_MS = 3_600_000;

/**
 * Sends due deliveries from the queue in the store. Each attempt is leased first (its next attempt moved past the
 * timeout, in one atomic update), so several processes can run this loop and an attempt cut short by a crash is
 * simply due again later. Attempts run concurrently and never wait for one another; an endpoint has at most one
 * attempt under way per process (the queue skips busy endpoints), so a slow or dead endpoint with a backlog holds one
 * slot, never the other tenants'.
 */
export function startDeliverer(options: DelivererOptions): Deliverer {
  const { store, logger, schedule } = options;
  const pollMs = options.pollMs ?? 500;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const concurrency = options.concurrency ?? 16;
  const now = options.now ?? Date.now;
  const lookup = guardedLookup(options.allowPrivateTargets);
  /** The attempt under way, by webhook id. */
  const inFlight = new Map<string, Promise<void>>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let nextSweep = 0;

  // The delivery log would otherwise grow with every event ever sent; a sweep is one query, so it runs in the loop.
  const sweepIfDue = async (at: number): Promise<void> => {
    if (at < nextSweep) return;
    nextSweep = at + SWEEP_EVERY_MS;
    const removed = await store.removeSettledBefore(at - options.retentionMs);
    if (removed > 0) logger.info('removed webhook deliveries past their retention', { removed });
  };

  const attempt = async (due: WebhookDelivery): Promise<void> => {
    const leasedAt = now();
    const leased = await store.updateDelivery(due.tenantId, due.webhookId, due.id, (current) =>
      current.state === 'pending' && current.nextAttemptAt !== null && current.nextAttemptAt <= leasedAt ? { ...current, nextAttemptAt: leasedAt + timeoutMs * 2 } : null,
    );
    if (!leased || leased.nextAttemptAt !== leasedAt + timeoutMs * 2) return;
    const endpoint = await store.getEndpoint(due.tenantId, due.webhookId);
    if (!endpoint) return;
    const outcome = await send(endpoint, leased, leasedAt, timeoutMs, lookup);
    const settled = await store.updateDelivery(due.tenantId, due.webhookId, due.id, (current) => afterAttempt(current, outcome, now(), schedule));
    logger.debug('webhook attempt', { webhookId: due.webhookId, deliveryId: due.id, status: outcome.status, error: outcome.error, state: settled?.state });
  };

  const tick = async (): Promise<void> => {
    await sweepIfDue(now());
    const free = concurrency - inFlight.size;
    if (free <= 0) return;
    const picked = await store.due(now(), free, new Set(inFlight.keys()));
    for (const due of picked) {
      const key = due.webhookId;
      inFlight.set(
        key,
        attempt(due)
          .catch((error: unknown) => logger.warn('webhook attempt could not be recorded; it is due again after its lease', { deliveryId: due.id, error: String(error) }))
          .finally(() => inFlight.delete(key)),
      );
    }
  };

  const loop = () => {
    if (stopped) return;
    tick()
      .catch((error: unknown) => logger.warn('webhook queue read failed; trying again', { error: String(error) }))
      .finally(() => {
        if (!stopped) timer = setTimeout(loop, pollMs);
      });
  };
  loop();

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await Promise.allSettled(inFlight.values());
    },
  };
}

/** One POST of a delivery, signed with every secret still signing at `at`; the status, or why there was none. */
function send(endpoint: WebhookEndpoint, delivery: WebhookDelivery, at: number, timeoutMs: number, lookup: ReturnType<typeof guardedLookup>): Promise<{ status: number | null; error: string | null }> {
  const secrets = endpoint.secrets.filter((secret) => secret.expiresAt === null || secret.expiresAt > at).map((secret) => secret.secret);
  const headers = {
    ...webhookHeaders(secrets, delivery.id, Math.floor(at / 1000), delivery.body),
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(delivery.body)),
    'user-agent': USER_AGENT,
  };
  const url = new URL(endpoint.url);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', headers, lookup, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? null, error: null }));
      res.on('error', (error) => resolve({ status: res.statusCode ?? null, error: error.message }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (error: Error & { code?: string }) => resolve({ status: null, error: error.code && error.code.startsWith('WEBHOOK.') ? `${error.code}: ${error.message}` : error.message }));
    req.end(delivery.body);
  });
}
