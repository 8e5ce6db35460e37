import { errors, type Client, type estypes } from '@elastic/elasticsearch';
import { MemoryServiceError } from '@memory/platform';
import { deliveryAcceptedAt, jobIdOfDelivery, type Scope, type WebhookDelivery, type WebhookEndpoint, type WebhookStore } from '@memory/ports';
import type { SharedClient } from './client.js';
import { DelayedExpunge } from './delayed-expunge.js';
import { deleteMatching } from './delete-matching.js';
import { readDocument, writeIfUnchanged } from './documents.js';
import { call, engineError } from './errors.js';
import { documentId } from './names.js';
import { retryOnConflict } from './retry-conflicts.js';

const FAMILY = 'WEBHOOK';
const MAX_ENDPOINTS = 1_000;
/**
 * A delivery as indexed: with its endpoint's key, tenant included, for the due queue to collapse on, and its job's
 * accept time, for an erasure to select by (schema 9; deliveries from before get both job fields at the next open).
 */
type DeliveryDocument = WebhookDelivery & { endpointKey: string; jobAcceptedAt?: number };
const endpointKeyOf = (delivery: WebhookDelivery) => `${delivery.tenantId}\n${delivery.webhookId}`;
const asDocument = (delivery: WebhookDelivery): DeliveryDocument => ({ ...delivery, endpointKey: endpointKeyOf(delivery), ...jobFieldsOf(delivery) });
function asDelivery(document: DeliveryDocument): WebhookDelivery {
  const { endpointKey: _, jobAcceptedAt: _acceptedAt, ...delivery } = document;
  return delivery;
}

/** The indexed job fields of a delivery: the job it is about and when that job was accepted. */
export function jobFieldsOf(delivery: Pick<WebhookDelivery, 'jobId' | 'body' | 'createdAt'>): { jobId?: string; jobAcceptedAt: number } {
  const jobId = jobIdOfDelivery(delivery);
  return { ...(jobId === null ? {} : { jobId }), jobAcceptedAt: deliveryAcceptedAt(delivery) };
}

const status = (error: unknown) => (error instanceof errors.ResponseError ? error.meta.statusCode : undefined);

/**
 * WebhookStore on two indices: endpoints (_id from tenant and id) and deliveries (_id from tenant, endpoint and
 * id). Reads by id are realtime GETs; changes are read-modify-writes under if_seq_no, re-applied on a conflict, so
 * concurrent changes across processes apply in turn. Endpoint writes wait for a refresh, because the dispatcher
 * finds a tenant's endpoints by search. Deliveries are written without a refresh; the due queue and the delivery log
 * are searches that refresh the deliveries index first, so they see every acknowledged write (one refresh per poll
 * of the delivery loop).
 */
export class ElasticsearchWebhookStore implements WebhookStore {
  private readonly client: Client;
  /**
   * No deleted delivery (ids of the end user and their jobs) or endpoint version (its secrets) stays in the files:
   * forgetting, an endpoint's delete and a secret rotation ask for an expunging merge. The delivery log's retention
   * does not (nobody asked for those ids to be forgotten, and an expunge after every sweep would rewrite most of the
   * index each time): its deletions go with merges, or with the next forget's expunge.
   */
  private readonly expunge: { endpoints: DelayedExpunge; deliveries: DelayedExpunge };
  private closed = false;

  constructor(
    private readonly shared: SharedClient,
    private readonly indices: { endpoints: string; deliveries: string },
    expungeDelayMs: number,
  ) {
    this.client = shared.acquire();
    this.expunge = { endpoints: new DelayedExpunge(this.client, indices.endpoints, expungeDelayMs), deliveries: new DelayedExpunge(this.client, indices.deliveries, expungeDelayMs) };
  }

  async createEndpoint(endpoint: WebhookEndpoint): Promise<void> {
    const id = endpointId(endpoint.tenantId, endpoint.id);
    this.checkOpen();
    try {
      await this.client.index({ index: this.indices.endpoints, id, document: endpoint, op_type: 'create', refresh: 'wait_for' }, { maxRetries: 0 });
    } catch (error) {
      if (status(error) === 409) throw new MemoryServiceError('WEBHOOK.ALREADY_EXISTS', `webhook ${endpoint.id} exists`);
      throw engineError(FAMILY, 'create webhook endpoint', error);
    }
  }

  async getEndpoint(tenantId: string, id: string): Promise<WebhookEndpoint | null> {
    this.checkOpen();
    return (await readDocument<WebhookEndpoint>(this.client, FAMILY, 'read webhook endpoint', this.indices.endpoints, endpointId(tenantId, id)))?.source ?? null;
  }

  async listEndpoints(tenantId: string): Promise<WebhookEndpoint[]> {
    checkTenant(tenantId);
    this.checkOpen();
    const found = await call(FAMILY, 'list webhook endpoints', () =>
      this.client.search<WebhookEndpoint>({ index: this.indices.endpoints, query: { term: { tenantId } }, size: MAX_ENDPOINTS, sort: [{ createdAt: 'asc' }, { id: 'asc' }] }),
    );
    return found.hits.hits.map((hit) => hit._source!);
  }

  async updateEndpoint(tenantId: string, id: string, change: (current: WebhookEndpoint) => WebhookEndpoint): Promise<WebhookEndpoint | null> {
    const updated = await this.change(this.indices.endpoints, endpointId(tenantId, id), 'update webhook endpoint', change);
    // The version replaced (a secret rotation drops the expired secrets) stays in the files as a deleted document.
    if (updated) this.expunge.endpoints.schedule();
    return updated;
  }

  async deleteEndpoint(tenantId: string, id: string): Promise<boolean> {
    const docId = endpointId(tenantId, id);
    this.checkOpen();
    try {
      await this.client.delete({ index: this.indices.endpoints, id: docId, refresh: 'wait_for' });
    } catch (error) {
      if (status(error) === 404) return false;
      throw engineError(FAMILY, 'delete webhook endpoint', error);
    }
    this.expunge.endpoints.schedule();
    const deliveries = await deleteMatching(this.client, FAMILY, 'delete the deliveries of a webhook', this.indices.deliveries, { bool: { filter: [{ term: { tenantId } }, { term: { webhookId: id } }] } });
    if (deliveries > 0) this.expunge.deliveries.schedule();
    return true;
  }

  async enqueue(delivery: WebhookDelivery): Promise<boolean> {
    const id = deliveryId(delivery.tenantId, delivery.webhookId, delivery.id);
    this.checkOpen();
    try {
      await this.client.index({ index: this.indices.deliveries, id, document: asDocument(delivery), op_type: 'create', refresh: false }, { maxRetries: 0 });
      return true;
    } catch (error) {
      if (status(error) === 409) return false;
      throw engineError(FAMILY, 'enqueue webhook delivery', error);
    }
  }

  async getDelivery(tenantId: string, webhookId: string, id: string): Promise<WebhookDelivery | null> {
    this.checkOpen();
    const found = await readDocument<DeliveryDocument>(this.client, FAMILY, 'read webhook delivery', this.indices.deliveries, deliveryId(tenantId, webhookId, id));
    return found ? asDelivery(found.source) : null;
  }

  async listDeliveries(tenantId: string, webhookId: string, limit: number): Promise<WebhookDelivery[]> {
    endpointId(tenantId, webhookId);
    return this.search('list webhook deliveries', { bool: { filter: [{ term: { tenantId } }, { term: { webhookId } }] } }, [{ createdAt: 'desc' }, { id: 'desc' }], limit);
  }

  async updateDelivery(tenantId: string, webhookId: string, id: string, change: (current: WebhookDelivery) => WebhookDelivery | null): Promise<WebhookDelivery | null> {
    const changed = await this.change<DeliveryDocument>(this.indices.deliveries, deliveryId(tenantId, webhookId, id), 'update webhook delivery', (current) => {
      const next = change(asDelivery(current));
      return next === null ? null : asDocument(next);
    });
    return changed ? asDelivery(changed) : null;
  }

  due(now: number, limit: number, busy: ReadonlySet<string> = new Set()): Promise<WebhookDelivery[]> {
    const query = { bool: { filter: [{ term: { state: 'pending' } }, { range: { nextAttemptAt: { lte: now } } }], must_not: busy.size ? [{ terms: { webhookId: [...busy] } }] : [] } };
    // Collapsed on the endpoint: its earliest due delivery only.
    return this.search('read due webhook deliveries', query, [{ nextAttemptAt: 'asc' }], limit, { field: 'endpointKey' });
  }

  forgetUser(scope: Scope, before: number): Promise<number> {
    // A delivery an old writer left without its job's accept time is selected by its creation, as before schema 9.
    const acceptedBefore = {
      bool: {
        should: [{ range: { jobAcceptedAt: { lt: before } } }, { bool: { must_not: [{ exists: { field: 'jobAcceptedAt' } }], filter: [{ range: { createdAt: { lt: before } } }] } }],
        minimum_should_match: 1,
      },
    };
    return this.forgetDeliveries(`forget the webhook deliveries of ${scope.tenantId}/${scope.endUserId}`, scope, acceptedBefore);
  }

  forgetJobs(scope: Scope, jobIds: string[]): Promise<number> {
    const forgotten = [...new Set(jobIds)];
    if (forgotten.length === 0) return Promise.resolve(0);
    return this.forgetDeliveries(`forget the webhook deliveries of ${forgotten.length} job(s) of ${scope.tenantId}/${scope.endUserId}`, scope, { terms: { jobId: forgotten } });
  }

  removeSettledBefore(before: number): Promise<number> {
    this.checkOpen();
    return deleteMatching(this.client, FAMILY, 'remove settled webhook deliveries', this.indices.deliveries, {
      bool: { filter: [{ terms: { state: ['delivered', 'failed'] } }, { range: { createdAt: { lt: before } } }] },
    });
  }

  async forgetTenant(tenantId: string): Promise<number> {
    checkTenant(tenantId);
    this.checkOpen();
    const endpoints = await deleteMatching(this.client, FAMILY, `forget the webhooks of tenant ${tenantId}`, this.indices.endpoints, { term: { tenantId } });
    if (endpoints > 0) this.expunge.endpoints.schedule();
    const deliveries = await deleteMatching(this.client, FAMILY, `forget the webhook deliveries of tenant ${tenantId}`, this.indices.deliveries, { term: { tenantId } });
    if (deliveries > 0) this.expunge.deliveries.schedule();
    return endpoints + deliveries;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.expunge.endpoints.cancel();
    this.expunge.deliveries.cancel();
    await this.shared.release();
  }

  /** Deletes one end user's deliveries that match the query, and has the deleted ones expunged from the files. */
  private async forgetDeliveries(what: string, scope: Scope, query: estypes.QueryDslQueryContainer): Promise<number> {
    checkTenant(scope.tenantId);
    this.checkOpen();
    const filter = [{ term: { tenantId: scope.tenantId } }, { term: { endUserId: scope.endUserId } }, query];
    const deleted = await deleteMatching(this.client, FAMILY, what, this.indices.deliveries, { bool: { filter } });
    if (deleted > 0) this.expunge.deliveries.schedule();
    return deleted;
  }

  private async search(what: string, query: estypes.QueryDslQueryContainer, sort: estypes.Sort, size: number, collapse?: estypes.SearchFieldCollapse): Promise<WebhookDelivery[]> {
    this.checkOpen();
    // Deliveries are written without waiting for a refresh (the hot path); the log and the queue refresh first.
    await call(FAMILY, `${what}: refresh`, () => this.client.indices.refresh({ index: this.indices.deliveries }));
    const found = await call(FAMILY, what, () => this.client.search<DeliveryDocument>({ index: this.indices.deliveries, query, sort, size, ...(collapse ? { collapse } : {}) }));
    return found.hits.hits.map((hit) => asDelivery(hit._source!));
  }

  /** Read, change, write if unchanged; again on a conflict. A change returning null writes nothing. */
  private async change<T>(index: string, id: string, what: string, change: (current: T) => T | null): Promise<T | null> {
    this.checkOpen();
    return retryOnConflict(FAMILY, what, async () => {
      const current = await readDocument<T>(this.client, FAMILY, what, index, id);
      if (!current) return null;
      const next = change(current.source);
      if (next === null) return current.source;
      await writeIfUnchanged(this.client, FAMILY, what, { index, id }, next, current);
      return next;
    });
  }

  private checkOpen(): void {
    if (this.closed) throw new MemoryServiceError('WEBHOOK.CLOSED', 'the webhook store is closed');
  }
}

function checkTenant(tenantId: string): void {
  if (typeof tenantId !== 'string' || tenantId === '') throw new MemoryServiceError('WEBHOOK.INVALID_ARGUMENT', 'webhook records are scoped by a non-empty tenantId');
}

function endpointId(tenantId: string, id: string): string {
  checkTenant(tenantId);
  if (typeof id !== 'string' || id === '') throw new MemoryServiceError('WEBHOOK.INVALID_ARGUMENT', 'a webhook id is a non-empty string');
  return documentId(tenantId, id);
}

function deliveryId(tenantId: string, webhookId: string, id: string): string {
  endpointId(tenantId, webhookId);
  if (typeof id !== 'string' || id === '') throw new MemoryServiceError('WEBHOOK.INVALID_ARGUMENT', 'a delivery id is a non-empty string');
  return documentId(tenantId, webhookId, id);
}
