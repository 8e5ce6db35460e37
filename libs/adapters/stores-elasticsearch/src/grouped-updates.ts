import type { Client, estypes } from '@elastic/elasticsearch';
import { timeStep } from '@memory/platform';
import { engineError, failureError, readableDocs, type Family } from './errors.js';
import { conflictBackoffMs, conflictError, defaultConflictRetry, type ConflictRetryOptions } from './retry-conflicts.js';

/** Updates written in one group at most; the rest go in the next. */
const MAX_GROUP = 500;

interface Pending<T> {
  id: string;
  what: string;
  change: (current: T | null) => T;
  /** Written as new without a read first; a conflict (it existed) sends it the usual way. */
  likelyNew: boolean;
  round: number;
  resolve: (document: T) => void;
  reject: (error: unknown) => void;
}

/**
 * Read-modify-write of documents by id under optimistic concurrency, as retryOnConflict does for one, with the
 * updates that come while a group is being written going together in the next: one realtime mget reads them all, one
 * bulk writes each with if_seq_no/if_primary_term (create for a new one), and an update that lost its race to
 * another writer reads again in a later group, after a jittered backoff. So N concurrent updates of different
 * documents cost two requests, not 2N (one, when all are of documents the caller has just made). The caller keeps
 * updates of one id from overlapping (KeyLock): two in one group would lose to each other.
 */
export class GroupedUpdates<T> {
  private waiting: Array<Pending<T>> = [];
  private writing = false;

  constructor(
    private readonly client: Client,
    private readonly family: Family,
    private readonly index: string,
    private readonly retry: ConflictRetryOptions = defaultConflictRetry,
  ) {}

  /**
   * The document as written; a throwing change rejects with its error, and nothing is written. `likelyNew`: the
   * caller has just made the document's subject, so it is created without a read, and read only if it existed.
   */
  update(id: string, what: string, change: (current: T | null) => T, hint?: { likelyNew?: boolean }): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ id, what, change, likelyNew: hint?.likelyNew === true, round: 0, resolve, reject });
      void this.writeWaiting();
    });
  }

  private async writeWaiting(): Promise<void> {
    if (this.writing) return;
    this.writing = true;
    try {
      // Updates asked for in the same turn of the event loop (a batch's jobs, requests that arrived together) go in
      // the first group rather than the first alone.
      await new Promise((resolve) => setImmediate(resolve));
      while (this.waiting.length > 0) {
        const group = this.waiting.splice(0, MAX_GROUP);
        const lost = await this.writeGroup(group);
        for (const update of lost) this.again(update);
      }
    } finally {
      this.writing = false;
    }
  }

  private again(update: Pending<T>): void {
    update.round += 1;
    update.likelyNew = false;
    if (update.round >= this.retry.attempts) return update.reject(conflictError(this.family, update.what, this.retry.attempts));
    setTimeout(() => {
      this.waiting.push(update);
      void this.writeWaiting();
    }, conflictBackoffMs(update.round - 1, this.retry));
  }

  /** Writes one group; answers the updates that lost to another writer. Every other update is settled. */
  private async writeGroup(group: Array<Pending<T>>): Promise<Array<Pending<T>>> {
    const what = `${group[0]!.what}${group.length > 1 ? ` and ${group.length - 1} more` : ''}`;
    const read = group.filter((update) => !update.likelyNew);
    const docs = new Map<Pending<T>, estypes.MgetResponseItem<T>>();
    if (read.length > 0) {
      try {
        const response = await timeStep('elasticsearch', () => this.client.mget<T>({ index: this.index, ids: read.map((update) => update.id) }));
        readableDocs(this.family, what, response.docs).forEach((doc, i) => docs.set(read[i]!, doc));
      } catch (error) {
        const failure = engineError(this.family, what, error);
        for (const update of group) update.reject(failure);
        return [];
      }
    }

    const writes: Array<{ update: Pending<T>; next: T }> = [];
    const operations: estypes.BulkRequest['operations'] = [];
    group.forEach((update) => {
      const doc = docs.get(update);
      const current = doc && 'found' in doc && doc.found && doc._source !== undefined ? doc : null;
      let next: T;
      try {
        next = update.change(current ? current._source! : null);
      } catch (error) {
        return update.reject(error);
      }
      writes.push({ update, next });
      const condition = current ? { index: { _index: this.index, _id: update.id, if_seq_no: current._seq_no!, if_primary_term: current._primary_term! } } : { create: { _index: this.index, _id: update.id } };
      operations.push(condition, next as object);
    });
    if (writes.length === 0) return [];

    let items: estypes.BulkResponseItem[];
    try {
      // No resend by the client: a write that landed but whose answer was lost would come back as a conflict, and
      // its change would be applied a second time.
      const response = await timeStep('elasticsearch', () => this.client.bulk({ operations, refresh: false }, { maxRetries: 0 }));
      items = response.items.map((item) => Object.values(item)[0] as estypes.BulkResponseItem);
    } catch (error) {
      const failure = engineError(this.family, what, error);
      for (const { update } of writes) update.reject(failure);
      return [];
    }
    const lost: Array<Pending<T>> = [];
    writes.forEach(({ update, next }, i) => {
      const item = items[i]!;
      if (item.status === 409) lost.push(update);
      else if (item.error) update.reject(failureError(this.family, update.what, { status: item.status, type: item.error.type, reason: item.error.reason ?? undefined }));
      else update.resolve(next);
    });
    return lost;
  }
}
