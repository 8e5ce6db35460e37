import { acceptedAtOf } from '@memory/contracts';
import type { Scope } from './memory.js';

/** The events a webhook endpoint may subscribe to. */
export const WEBHOOK_EVENT_TYPES = ['job.completed', 'job.failed', 'memory.updated', 'memory.deleted', 'user.erased'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export interface WebhookSecret {
  /** `whsec_` + base64 of the key bytes, as shown to the tenant: HMAC needs the key itself, so it is kept as is. */
  secret: string;
  /** ms epoch after which a rotated-out secret no longer signs; null for the current one. */
  expiresAt: number | null;
}

/** One tenant's endpoint. */
export interface WebhookEndpoint {
  id: string;
  tenantId: string;
  url: string;
  events: WebhookEventType[];
  /** The current secret first, then rotated-out ones still within their grace period. */
  secrets: WebhookSecret[];
  createdAt: number;
}

export type WebhookDeliveryState = 'pending' | 'delivered' | 'failed';

/** One event for one endpoint, and what became of its attempts. */
export interface WebhookDelivery {
  /** Also the `webhook-id` header: the same on every attempt, so a receiver can drop duplicates. */
  id: string;
  tenantId: string;
  /** The end user whose job the event is about, so an erasure finds their deliveries. */
  endUserId: string;
  /**
   * The job the event is about, so forgetting the job finds its deliveries, and an erasure those of the jobs accepted
   * before it; absent in deliveries stored before it was kept (jobIdOfDelivery reads it from their body).
   */
  jobId?: string;
  webhookId: string;
  eventType: WebhookEventType;
  /** The JSON body as signed and sent. */
  body: string;
  state: WebhookDeliveryState;
  attempts: number;
  /** ms epoch of the next attempt while pending (a lease while an attempt is under way); null once settled. */
  nextAttemptAt: number | null;
  lastStatus: number | null;
  lastError: string | null;
  /** ms epoch after which a failed attempt marks it failed instead of scheduling another (a redelivery moves it). */
  retryUntil: number;
  createdAt: number;
  updatedAt: number;
}

/**
 * Webhook endpoints and their delivery queue, per tenant: an endpoint or a delivery of another tenant is absent.
 * Deliveries are keyed by id, derived from the event and the endpoint, so enqueueing one twice (a redelivered or
 * replayed event) keeps the first.
 */
export interface WebhookStore {
  createEndpoint(endpoint: WebhookEndpoint): Promise<void>;
  getEndpoint(tenantId: string, id: string): Promise<WebhookEndpoint | null>;
  /** The tenant's endpoints, oldest first. */
  listEndpoints(tenantId: string): Promise<WebhookEndpoint[]>;
  /** Read-modify-write of one endpoint, atomic; null when there is no such endpoint. */
  updateEndpoint(tenantId: string, id: string, change: (current: WebhookEndpoint) => WebhookEndpoint): Promise<WebhookEndpoint | null>;
  /** Removes the endpoint and its deliveries; false when there was none. */
  deleteEndpoint(tenantId: string, id: string): Promise<boolean>;
  /** Adds the delivery unless one with its id exists; true when added. */
  enqueue(delivery: WebhookDelivery): Promise<boolean>;
  getDelivery(tenantId: string, webhookId: string, id: string): Promise<WebhookDelivery | null>;
  /** One endpoint's deliveries, newest first, at most `limit`. */
  listDeliveries(tenantId: string, webhookId: string, limit: number): Promise<WebhookDelivery[]>;
  /** Read-modify-write of one delivery, atomic; returning null from `change` leaves it as it is. */
  updateDelivery(tenantId: string, webhookId: string, id: string, change: (current: WebhookDelivery) => WebhookDelivery | null): Promise<WebhookDelivery | null>;
  /**
   * Pending deliveries of every tenant whose next attempt is due at `now`: the earliest of each endpoint, skipping
   * the endpoints whose webhook id is in `busy` (ids are drawn at random, so unique across tenants), earliest first,
   * at most `limit`. One per endpoint, so a backlog at one
   * endpoint never hides another endpoint's due delivery.
   */
  due(now: number, limit: number, busy?: ReadonlySet<string>): Promise<WebhookDelivery[]>;
  /**
   * Removes the deliveries about one end user's jobs accepted before `before` (erasure; deliveryAcceptedAt), whenever
   * they were enqueued; returns how many.
   */
  forgetUser(scope: Scope, before: number): Promise<number>;
  /** Removes the deliveries about these jobs of one end user (forgetting the jobs); returns how many. */
  forgetJobs(scope: Scope, jobIds: string[]): Promise<number>;
  /** Removes delivered and failed deliveries created before `before` (the delivery log's retention); returns how many. */
  removeSettledBefore(before: number): Promise<number>;
  /** Removes every endpoint and delivery of one tenant; returns how many records. */
  forgetTenant(tenantId: string): Promise<number>;
  close(): Promise<void>;
}

/** The job a delivery is about: its jobId, or for one stored before deliveries kept it, the job its body names. */
export function jobIdOfDelivery(delivery: Pick<WebhookDelivery, 'jobId' | 'body'>): string | null {
  if (delivery.jobId) return delivery.jobId;
  try {
    const jobId: unknown = (JSON.parse(delivery.body) as { data?: { jobId?: unknown } }).data?.jobId;
    return typeof jobId === 'string' ? jobId : null;
  } catch {
    return null;
  }
}

/**
 * When the job a delivery is about was accepted, read from its id as every store reads it; the delivery's creation
 * (a report's log time, later than the accept) only for a job id without one. An erasure removes the deliveries of
 * the jobs it covers by this time, so a job accepted before it and reported after it goes too.
 */
export function deliveryAcceptedAt(delivery: Pick<WebhookDelivery, 'jobId' | 'body' | 'createdAt'>): number {
  return acceptedAtOf(jobIdOfDelivery(delivery) ?? '') ?? delivery.createdAt;
}
