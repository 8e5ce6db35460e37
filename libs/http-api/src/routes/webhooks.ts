import { randomBytes } from 'node:crypto';
import { Router, json, type Request } from 'express';
import { objectOf, RequestError } from '@memory/platform';
import { WEBHOOK_EVENT_TYPES, type WebhookDelivery, type WebhookEndpoint, type WebhookEventType, type WebhookStore } from '@memory/ports';
import { checkWebhookTarget, newWebhookSecret, parseWebhookUrl, type RetrySchedule } from '@memory/stage-webhook-dispatcher';
import { REQUEST_LIMITS } from '../limits.js';
import { validateId } from '../validation.js';
import { requireJson } from './guards.js';

export interface WebhookRouteDeps {
  store: WebhookStore;
  /** MEMORY_WEBHOOKS_ALLOW_PRIVATE: accept loopback, private and link-local targets (tests, private networks). */
  allowPrivateTargets: boolean;
  schedule: Pick<RetrySchedule, 'windowMs'>;
  now?: () => number;
}

const WEBHOOK_FIELDS = ['url', 'events'];
/** How long a rotated-out secret still signs, so receivers can switch without missing a delivery. */
export const SECRET_GRACE_MS = 24 * 3_600_000;
const DELIVERY_LIST_LIMIT = 100;

/**
 * The tenant's webhook endpoints (per API key): register, list, delete, rotate the secret, read the delivery log and
 * ask for a redelivery. Another tenant's endpoint or delivery is 404 like one that never existed.
 */
export function webhookRoutes(deps: WebhookRouteDeps): Router {
  const { store } = deps;
  const now = deps.now ?? Date.now;
  const router = Router();
  const tenantOf = (res: { locals: Record<string, unknown> }) => res.locals['tenantId'] as string;
  const webhookIdOf = (req: Request) => validateId(req.params['webhookId'], 'webhookId');
  const endpointOf = async (req: Request, tenantId: string) => {
    const webhookId = webhookIdOf(req);
    const endpoint = await store.getEndpoint(tenantId, webhookId);
    if (!endpoint) throw new RequestError(404, 'WEBHOOK.NOT_FOUND', `no webhook ${webhookId} for this API key`);
    return endpoint;
  };

  router.post('/v1/webhooks', requireJson, json({ limit: REQUEST_LIMITS.jsonBodyBytes }), async (req, res) => {
    const body = objectOf(req.body, 'body');
    const unknown = Object.keys(body).filter((key) => !WEBHOOK_FIELDS.includes(key));
    if (unknown.length > 0) throw new RequestError(400, 'REQUEST.INVALID_FIELD', `unknown field(s) ${unknown.join(', ')}: a webhook takes ${WEBHOOK_FIELDS.join(', ')}`, { allowed: WEBHOOK_FIELDS });
    const url = parseWebhookUrl(body['url']);
    const events = eventsOf(body['events']);
    await checkWebhookTarget(url, deps.allowPrivateTargets);
    const endpoint: WebhookEndpoint = { id: `wh_${randomBytes(12).toString('base64url')}`, tenantId: tenantOf(res), url: url.href, events, secrets: [{ secret: newWebhookSecret(), expiresAt: null }], createdAt: now() };
    await store.createEndpoint(endpoint);
    res.status(201).json({ ...endpointView(endpoint), secret: endpoint.secrets[0]!.secret });
  });

  router.get('/v1/webhooks', async (_req, res) => {
    res.json({ data: (await store.listEndpoints(tenantOf(res))).map(endpointView) });
  });

  router.get('/v1/webhooks/:webhookId', async (req, res) => {
    res.json(endpointView(await endpointOf(req, tenantOf(res))));
  });

  router.delete('/v1/webhooks/:webhookId', async (req, res) => {
    const endpoint = await endpointOf(req, tenantOf(res));
    await store.deleteEndpoint(endpoint.tenantId, endpoint.id);
    res.status(204).end();
  });

  router.post('/v1/webhooks/:webhookId/rotate-secret', async (req, res) => {
    const at = now();
    const secret = newWebhookSecret();
    const webhookId = webhookIdOf(req);
    const rotated = await store.updateEndpoint(tenantOf(res), webhookId, (current) => ({
      ...current,
      secrets: [
        { secret, expiresAt: null },
        ...current.secrets.map((old) => ({ secret: old.secret, expiresAt: old.expiresAt ?? at + SECRET_GRACE_MS })).filter((old) => old.expiresAt > at),
      ],
    }));
    if (!rotated) throw new RequestError(404, 'WEBHOOK.NOT_FOUND', `no webhook ${webhookId} for this API key`);
    res.json({ id: rotated.id, secret, previousSecretsExpireAt: new Date(at + SECRET_GRACE_MS).toISOString() });
  });

  router.get('/v1/webhooks/:webhookId/deliveries', async (req, res) => {
    const endpoint = await endpointOf(req, tenantOf(res));
    res.json({ data: (await store.listDeliveries(endpoint.tenantId, endpoint.id, DELIVERY_LIST_LIMIT)).map(deliveryView) });
  });

  router.post('/v1/webhooks/:webhookId/deliveries/:deliveryId/redeliver', async (req, res) => {
    const endpoint = await endpointOf(req, tenantOf(res));
    const deliveryId = validateId(req.params['deliveryId'], 'deliveryId');
    const at = now();
    const redelivered = await store.updateDelivery(endpoint.tenantId, endpoint.id, deliveryId, (current) => ({
      ...current,
      state: 'pending',
      nextAttemptAt: at,
      retryUntil: at + deps.schedule.windowMs,
      updatedAt: at,
    }));
    if (!redelivered) throw new RequestError(404, 'WEBHOOK.DELIVERY_NOT_FOUND', `no delivery ${deliveryId} of this webhook`);
    res.status(202).json(deliveryView(redelivered));
  });
  return router;
}

function eventsOf(raw: unknown): WebhookEventType[] {
  if (!Array.isArray(raw) || raw.length === 0 || raw.some((event) => typeof event !== 'string')) {
    throw new RequestError(400, 'WEBHOOK.UNKNOWN_EVENT', `events must be a non-empty array of ${WEBHOOK_EVENT_TYPES.join(', ')}`, { allowed: [...WEBHOOK_EVENT_TYPES] });
  }
  const unknown = raw.filter((event) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(event));
  if (unknown.length > 0) throw new RequestError(400, 'WEBHOOK.UNKNOWN_EVENT', `unknown event(s) ${unknown.join(', ')}; the events are ${WEBHOOK_EVENT_TYPES.join(', ')}`, { allowed: [...WEBHOOK_EVENT_TYPES] });
  return [...new Set(raw as WebhookEventType[])];
}

/** An endpoint as the API shows it: never its secrets. */
function endpointView(endpoint: WebhookEndpoint) {
  return { id: endpoint.id, url: endpoint.url, events: endpoint.events, createdAt: new Date(endpoint.createdAt).toISOString() };
}

function deliveryView(delivery: WebhookDelivery) {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: delivery.id,
    eventType: delivery.eventType,
    state: delivery.state,
    attempts: delivery.attempts,
    lastStatus: delivery.lastStatus,
    lastError: delivery.lastError,
    nextAttemptAt: delivery.state === 'pending' ? iso(delivery.nextAttemptAt) : null,
    createdAt: iso(delivery.createdAt),
    updatedAt: iso(delivery.updatedAt),
  };
}
