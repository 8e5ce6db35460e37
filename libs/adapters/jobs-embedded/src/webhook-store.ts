import { open, type Database, type Key, type RootDatabase } from 'lmdb';
import { closeCompactingIfMarked, handleFailedCommits, lmdbError, lmdbWriteError, markForCompaction, MemoryServiceError } from '@memory/platform';
import { deliveryAcceptedAt, jobIdOfDelivery, type Scope, type WebhookDelivery, type WebhookEndpoint, type WebhookStore } from '@memory/ports';

type EndpointKey = [tenantId: string, id: string];
type DeliveryKey = [tenantId: string, webhookId: string, id: string];
type DueKey = [nextAttemptAt: number, tenantId: string, webhookId: string, id: string];

// ordered-binary separates array elements by a 0 byte that strings never contain, so 0xff after a prefix sorts
// above every key under that prefix.
const AFTER_ALL = new Uint8Array([0xff]);
/** Deliveries removed per write transaction by a sweep, so a long sweep never holds LMDB's one writer for long. */
const REMOVE_SLICE = 1_000;

/** What a change callback threw, carried out of the write transaction untouched. */
class ChangeFailed {
  constructor(readonly error: unknown) {}
}

/**
 * WebhookStore on LMDB, in an environment of its own: endpoints [tenantId, id], deliveries [tenantId, webhookId,
 * id], and an index of pending deliveries by due time [nextAttemptAt, tenantId, webhookId, id] kept in the same
 * write transaction as the delivery, so due() reads only what is due. Every change is one write transaction (LMDB
 * has one writer at a time, across processes too), fsynced before it resolves.
 */
export class EmbeddedWebhookStore implements WebhookStore {
  private closed = false;

  private constructor(
    private readonly dir: string,
    private readonly env: RootDatabase,
    private readonly endpoints: Database<WebhookEndpoint, Key>,
    private readonly deliveries: Database<WebhookDelivery, Key>,
    private readonly dueIndex: Database<true, Key>,
  ) {}

  static openEnv(dir: string): RootDatabase {
    return handleFailedCommits(open({ path: dir, overlappingSync: false, maxDbs: 4 }));
  }

  static open(dir: string): EmbeddedWebhookStore {
    try {
      const env = EmbeddedWebhookStore.openEnv(dir);
      return new EmbeddedWebhookStore(dir, env, env.openDB('endpoints', {}), env.openDB('deliveries', {}), env.openDB('due', {}));
    } catch (error) {
      throw lmdbError('WEBHOOK', 'webhook store', 'open', error);
    }
  }

  async createEndpoint(endpoint: WebhookEndpoint): Promise<void> {
    const key = endpointKey(endpoint.tenantId, endpoint.id);
    await this.write('create endpoint', () => {
      if (this.endpoints.get(key)) throw new ChangeFailed(new MemoryServiceError('WEBHOOK.ALREADY_EXISTS', `webhook ${endpoint.id} exists`));
      this.endpoints.put(key, endpoint);
    });
  }

  async getEndpoint(tenantId: string, id: string): Promise<WebhookEndpoint | null> {
    const key = endpointKey(tenantId, id);
    return this.read('read endpoint', () => this.endpoints.get(key) ?? null);
  }

  async listEndpoints(tenantId: string): Promise<WebhookEndpoint[]> {
    checkTenant(tenantId);
    const found = await this.read('list endpoints', () => [...this.endpoints.getRange({ start: [tenantId], end: [tenantId, AFTER_ALL] }).map(({ value }) => value)]);
    return found.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  }

  updateEndpoint(tenantId: string, id: string, change: (current: WebhookEndpoint) => WebhookEndpoint): Promise<WebhookEndpoint | null> {
    const key = endpointKey(tenantId, id);
    return this.write('update endpoint', () => {
      const current = this.endpoints.get(key);
      if (!current) return null;
      const next = runChange(() => change(current));
      this.endpoints.put(key, next);
      return next;
    });
  }

  deleteEndpoint(tenantId: string, id: string): Promise<boolean> {
    const key = endpointKey(tenantId, id);
    return this.write('delete endpoint', () => {
      if (!this.endpoints.get(key)) return false;
      this.endpoints.remove(key);
      this.removeDeliveries({ start: [tenantId, id], end: [tenantId, id, AFTER_ALL] });
      return true;
    });
  }

  enqueue(delivery: WebhookDelivery): Promise<boolean> {
    const key = deliveryKey(delivery.tenantId, delivery.webhookId, delivery.id);
    return this.write('enqueue delivery', () => {
      if (this.deliveries.get(key)) return false;
      this.putDelivery(key, null, delivery);
      return true;
    });
  }

  async getDelivery(tenantId: string, webhookId: string, id: string): Promise<WebhookDelivery | null> {
    const key = deliveryKey(tenantId, webhookId, id);
    return this.read('read delivery', () => this.deliveries.get(key) ?? null);
  }

  async listDeliveries(tenantId: string, webhookId: string, limit: number): Promise<WebhookDelivery[]> {
    endpointKey(tenantId, webhookId);
    const found = await this.read('list deliveries', () => [...this.deliveries.getRange({ start: [tenantId, webhookId], end: [tenantId, webhookId, AFTER_ALL] }).map(({ value }) => value)]);
    return found.sort((a, b) => b.createdAt - a.createdAt || b.id.localeCompare(a.id)).slice(0, limit);
  }

  updateDelivery(tenantId: string, webhookId: string, id: string, change: (current: WebhookDelivery) => WebhookDelivery | null): Promise<WebhookDelivery | null> {
    const key = deliveryKey(tenantId, webhookId, id);
    return this.write('update delivery', () => {
      const current = this.deliveries.get(key);
      if (!current) return null;
      const next = runChange(() => change(current));
      if (next === null) return current;
      this.putDelivery(key, current, next);
      return next;
    });
  }

  async due(now: number, limit: number, busy: ReadonlySet<string> = new Set()): Promise<WebhookDelivery[]> {
    return this.read('read due deliveries', () => {
      const found: WebhookDelivery[] = [];
      const seen = new Set<string>();
      // The due index is read in order; a key scan is cheap, so a long backlog of one endpoint is skipped over.
      for (const dueKey of this.dueIndex.getKeys({ end: [now, AFTER_ALL] })) {
        const [, tenantId, webhookId, id] = dueKey as DueKey;
        const endpoint = `${tenantId}\n${webhookId}`;
        if (busy.has(webhookId) || seen.has(endpoint)) continue;
        const delivery = this.deliveries.get([tenantId, webhookId, id]);
        if (!delivery) continue;
        seen.add(endpoint);
        found.push(delivery);
        if (found.length >= limit) break;
      }
      return found;
    });
  }

  async forgetUser(scope: Scope, before: number): Promise<number> {
    checkTenant(scope.tenantId);
    const what = `forget the deliveries of ${scope.tenantId}/${scope.endUserId}`;
    return this.forgetWhere(what, scope.tenantId, (delivery) => delivery.endUserId === scope.endUserId && deliveryAcceptedAt(delivery) < before);
  }

  async forgetJobs(scope: Scope, jobIds: string[]): Promise<number> {
    checkTenant(scope.tenantId);
    const forgotten = new Set(jobIds);
    if (forgotten.size === 0) return 0;
    const what = `forget the deliveries of ${forgotten.size} job(s) of ${scope.tenantId}/${scope.endUserId}`;
    return this.forgetWhere(what, scope.tenantId, (delivery) => delivery.endUserId === scope.endUserId && forgotten.has(jobIdOfDelivery(delivery) ?? ''));
  }

  removeSettledBefore(before: number): Promise<number> {
    return this.removeWhere('remove settled deliveries', {}, (delivery) => delivery.state !== 'pending' && delivery.createdAt < before);
  }

  async forgetTenant(tenantId: string): Promise<number> {
    checkTenant(tenantId);
    await this.markForgetting(`forget tenant ${tenantId}`);
    return this.write(`forget tenant ${tenantId}`, () => {
      const endpoints = [...this.endpoints.getKeys({ start: [tenantId], end: [tenantId, AFTER_ALL] })];
      for (const key of endpoints) this.endpoints.remove(key);
      return endpoints.length + this.removeDeliveries({ start: [tenantId], end: [tenantId, AFTER_ALL] });
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // What an erasure removed must not stay in freed pages.
    await closeCompactingIfMarked(this.env, this.dir, (error) => lmdbError('WEBHOOK', 'webhook store', 'compaction', error));
  }

  /**
   * What an erasure removes must not stay in freed pages: the store is marked for compaction (at close, or at the
   * next open) before the removal commits, so a crash right after the commit still leaves the mark.
   */
  private async markForgetting(what: string): Promise<void> {
    this.checkOpen();
    await markForCompaction(this.dir).catch((error: unknown) => Promise.reject(lmdbError('WEBHOOK', 'webhook store', what, error)));
  }

  /** Writes a delivery and moves its entry in the due index; inside a write transaction. */
  private putDelivery(key: DeliveryKey, previous: WebhookDelivery | null, next: WebhookDelivery): void {
    if (previous?.state === 'pending' && previous.nextAttemptAt !== null) this.dueIndex.remove(dueKey(previous));
    this.deliveries.put(key, next);
    if (next.state === 'pending' && next.nextAttemptAt !== null) this.dueIndex.put(dueKey(next), true);
  }

  /** Removes the deliveries of a key range and their due entries; inside a write transaction. */
  private removeDeliveries(range: { start: Key; end: Key }): number {
    // Read to the end before removing, so the cursor never walks a range it is changing.
    const found = [...this.deliveries.getRange(range)];
    for (const { key, value } of found) {
      if (value.state === 'pending' && value.nextAttemptAt !== null) this.dueIndex.remove(dueKey(value));
      this.deliveries.remove(key);
    }
    return found.length;
  }

  /** Removes the deliveries of a range that pass the test, in write transactions of a slice each; returns how many. */
  private async removeWhere(what: string, range: { start?: Key; end?: Key }, test: (delivery: WebhookDelivery) => boolean): Promise<number> {
    return this.removeKeys(what, await this.keysWhere(what, range, test), test);
  }

  /**
   * Forgets the tenant's deliveries that pass the test. Deliveries are keyed by endpoint, not by end user or job, so
   * the tenant's are scanned; the store is marked for compaction only when some are found.
   */
  private async forgetWhere(what: string, tenantId: string, test: (delivery: WebhookDelivery) => boolean): Promise<number> {
    const keys = await this.keysWhere(what, { start: [tenantId], end: [tenantId, AFTER_ALL] }, test);
    if (keys.length === 0) return 0;
    await this.markForgetting(what);
    return this.removeKeys(what, keys, test);
  }

  private keysWhere(what: string, range: { start?: Key; end?: Key }, test: (delivery: WebhookDelivery) => boolean): Promise<DeliveryKey[]> {
    return this.read(what, () => [...this.deliveries.getRange(range).filter(({ value }) => test(value)).map(({ key }) => key as DeliveryKey)]);
  }

  /** Removes these deliveries, each if it still passes the test, in write transactions of a slice each. */
  private async removeKeys(what: string, keys: DeliveryKey[], test: (delivery: WebhookDelivery) => boolean): Promise<number> {
    let removed = 0;
    for (let start = 0; start < keys.length; start += REMOVE_SLICE) {
      removed += await this.write(what, () => {
        let count = 0;
        for (const key of keys.slice(start, start + REMOVE_SLICE)) {
          const delivery = this.deliveries.get(key);
          if (!delivery || !test(delivery)) continue;
          if (delivery.state === 'pending' && delivery.nextAttemptAt !== null) this.dueIndex.remove(dueKey(delivery));
          this.deliveries.remove(key);
          count += 1;
        }
        return count;
      });
    }
    return removed;
  }

  private async read<T>(what: string, body: () => T): Promise<T> {
    this.checkOpen();
    try {
      return body();
    } catch (error) {
      throw lmdbError('WEBHOOK', 'webhook store', what, error);
    }
  }

  private async write<T>(what: string, body: () => T): Promise<T> {
    this.checkOpen();
    try {
      return await this.env.transaction(body);
    } catch (error) {
      if (error instanceof ChangeFailed) throw error.error;
      throw await lmdbWriteError('WEBHOOK', 'webhook store', what, error, this.dir);
    }
  }

  private checkOpen(): void {
    if (this.closed) throw new MemoryServiceError('WEBHOOK.CLOSED', 'the webhook store is closed');
  }
}

function runChange<T>(change: () => T): T {
  try {
    return change();
  } catch (error) {
    throw new ChangeFailed(error);
  }
}

const dueKey = (delivery: WebhookDelivery): DueKey => [delivery.nextAttemptAt!, delivery.tenantId, delivery.webhookId, delivery.id];

function checkTenant(tenantId: string): void {
  if (typeof tenantId !== 'string' || tenantId === '') throw new MemoryServiceError('WEBHOOK.INVALID_ARGUMENT', 'webhook records are scoped by a non-empty tenantId');
}

function endpointKey(tenantId: string, id: string): EndpointKey {
  checkTenant(tenantId);
  if (typeof id !== 'string' || id === '') throw new MemoryServiceError('WEBHOOK.INVALID_ARGUMENT', 'a webhook id is a non-empty string');
  return [tenantId, id];
}

function deliveryKey(tenantId: string, webhookId: string, id: string): DeliveryKey {
  endpointKey(tenantId, webhookId);
  if (typeof id !== 'string' || id === '') throw new MemoryServiceError('WEBHOOK.INVALID_ARGUMENT', 'a delivery id is a non-empty string');
  return [tenantId, webhookId, id];
}
