import { acceptedAtOf, jobIdOfMemory, keyForgotten, newDataKey, type ContentKeys } from '@memory/contracts';
import { GroupedCalls } from '@memory/platform';
import type { Scope } from './memory.js';

/** One subject of an end user's content: whose it is, and the id its key goes by. */
export interface KeySubject {
  scope: Scope;
  keyId: string;
}

/** A new key for one subject, as DataKeyStore.create takes it. */
export interface KeyRequest extends KeySubject {
  key: Buffer;
}

/**
 * The data keys that seal each subject's content in the log (see @memory/contracts sealing.ts), and the tombstones
 * of forgotten subjects. A forgotten key id can never get a key again, so a stage that still holds a forgotten
 * memory in flight cannot write it anywhere sealed. Tombstones hold ids only.
 */
export interface DataKeyStore {
  /** The keys that exist for these ids; forgotten and unknown ids are left out. */
  get(scope: Scope, keyIds: string[]): Promise<Map<string, Buffer>>;
  /**
   * Stores these keys durably, all at once, unless a key already exists for the subject (that one is returned in its
   * place); a forgotten subject gets no key (null). Answers in the order asked.
   */
  create(requests: KeyRequest[]): Promise<Array<Buffer | null>>;
  /**
   * Destroys these keys, and for a job id the keys of its parts (`mem_<jobId>_<n>`), and leaves a tombstone for each
   * id; returns how many keys existed.
   */
  forget(scope: Scope, keyIds: string[]): Promise<number>;
  /**
   * Erasure of an end user (or, with endUserId null, of a whole tenant): destroys every key of subjects accepted
   * before `before` (ms epoch, see acceptedAtOf) and every key without an accept time, and refuses such subjects' keys
   * from now on. Returns how many keys existed.
   */
  erase(scope: { tenantId: string; endUserId: string | null }, before: number): Promise<number>;
  /**
   * Makes destroyed keys unrecoverable from the store's own files (embedded: a compacting rewrite; Elasticsearch: a
   * merge that expunges deleted documents, asked for once the soft-delete retention has passed). Destruction is
   * durable without it; it is called once per batch of forgetting, so many destructions share one rewrite.
   */
  scrub(): Promise<void>;
  /** Which of these ids are forgotten (by tombstone or by an erasure of their user or tenant). */
  forgotten(scope: Scope, keyIds: string[]): Promise<Set<string>>;
  /**
   * Whether an erasure of its end user or tenant covers each of these subjects, of any end users and tenants (a
   * subject's own tombstone is not read), in one request for them all; answers in the order asked.
   */
  erasedAmong(subjects: KeySubject[]): Promise<boolean[]>;
  /** Every key of the store, for moving a deployment (export-to-kafka); not for the request path. */
  entries(): AsyncIterable<{ scope: Scope; keyId: string; key: Buffer }>;
  close(): Promise<void>;
}

/**
 * The subjects whose tombstone forgets this key id: itself, and for a part of a multi-part job (a memory id) the
 * job, so forgetting a job forgets the parts the enricher has not split yet.
 */
export function tombstonesCovering(keyId: string): string[] {
  const jobId = jobIdOfMemory(keyId);
  return jobId ? [keyId, jobId] : [keyId];
}

/** Whether an erasure at `before` forgets this subject for good: one accepted before it. */
export function erasureCovers(keyId: string, before: number): boolean {
  const acceptedAt = acceptedAtOf(keyId);
  return acceptedAt !== null && acceptedAt < before;
}

/**
 * Whether an erasure at `before` destroys this key: a subject it covers, or a per-user aggregate (no accept time),
 * which starts anew afterwards.
 */
export function erasureDestroys(keyId: string, before: number): boolean {
  return acceptedAtOf(keyId) === null || erasureCovers(keyId, before);
}

/**
 * The codec's ContentKeys over a DataKeyStore, with the keys it has seen cached: a forgotten key leaves the cache
 * through `forget` and `erase` here, and a stage process learns of another process's forgetting at its next
 * read, so the cache holds keys for a bounded time only.
 *
 * New keys are created in groups (GroupedCalls), so concurrent accepts share one durable write, as they share the
 * log's; so do the checks of whether a subject was erased.
 */
export class Keyring implements ContentKeys {
  private readonly cache = new Map<string, { key: Buffer; at: number }>();
  private readonly creates = new GroupedCalls<KeyRequest, Buffer | null>((requests) => this.store.create(requests));
  private readonly erasureChecks = new GroupedCalls<KeySubject, boolean>((subjects) => this.store.erasedAmong(subjects));

  constructor(
    private readonly store: DataKeyStore,
    private readonly options: { cacheMs?: number; maxCached?: number; now?: () => number } = {},
  ) {}

  async keyFor(tenantId: string, endUserId: string, keyId: string): Promise<Buffer> {
    const cached = this.cached(tenantId, endUserId, keyId);
    if (cached) return cached;
    const key = await this.create({ tenantId, endUserId }, keyId, newDataKey());
    if (!key) throw keyForgotten(tenantId, endUserId, keyId);
    this.remember(tenantId, endUserId, keyId, key);
    return key;
  }

  /**
   * Creates the subject's key unless it has one: 'claimed' when this call created it (kept for the records sealed
   * next), 'taken' when the subject already had a key (another process issued the same id), 'forgotten' when the
   * subject is. How a process makes an id it issued its own: ids are issued per process (createJobIdClock), and two
   * processes can issue the same one.
   */
  async claim(tenantId: string, endUserId: string, keyId: string): Promise<'claimed' | 'taken' | 'forgotten'> {
    const fresh = newDataKey();
    const key = await this.create({ tenantId, endUserId }, keyId, fresh);
    if (!key) return 'forgotten';
    if (!key.equals(fresh)) return 'taken';
    this.remember(tenantId, endUserId, keyId, key);
    return 'claimed';
  }

  /** The stored key of the subject after asking to create `key`: `key` itself, the one it already had, or null. */
  private async create(scope: Scope, keyId: string, key: Buffer): Promise<Buffer | null> {
    return (await this.creates.call({ scope, keyId, key })) ?? null;
  }

  async existingKey(tenantId: string, endUserId: string, keyId: string): Promise<Buffer | null> {
    const cached = this.cached(tenantId, endUserId, keyId);
    if (cached) return cached;
    const key = (await this.store.get({ tenantId, endUserId }, [keyId])).get(keyId) ?? null;
    if (key) this.remember(tenantId, endUserId, keyId, key);
    return key;
  }

  async forget(scope: Scope, keyIds: string[]): Promise<number> {
    for (const keyId of keyIds) this.cache.delete(cacheKey(scope.tenantId, scope.endUserId, keyId));
    return this.store.forget(scope, keyIds);
  }

  async erase(scope: { tenantId: string; endUserId: string | null }, before: number): Promise<number> {
    const prefix = scope.endUserId === null ? `${scope.tenantId}\u0000` : `${scope.tenantId}\u0000${scope.endUserId}\u0000`;
    for (const key of [...this.cache.keys()]) if (key.startsWith(prefix)) this.cache.delete(key);
    return this.store.erase(scope, before);
  }

  forgotten(scope: Scope, keyIds: string[]): Promise<Set<string>> {
    return this.store.forgotten(scope, keyIds);
  }

  /**
   * Whether an erasure of the subject's end user or tenant covers it, read from the store now, never from the cache
   * (which can hold a key another process has since destroyed). Checks asked while one read is in flight go together
   * in the next, as creates do.
   */
  isErased(scope: Scope, keyId: string): Promise<boolean> {
    return this.erasureChecks.call({ scope, keyId });
  }

  scrub(): Promise<void> {
    return this.store.scrub();
  }

  private cached(tenantId: string, endUserId: string, keyId: string): Buffer | null {
    const id = cacheKey(tenantId, endUserId, keyId);
    const entry = this.cache.get(id);
    if (!entry) return null;
    if (this.now() - entry.at > this.cacheMs) {
      this.cache.delete(id);
      return null;
    }
    return entry.key;
  }

  /** How many keys the cache holds now. */
  get cachedKeys(): number {
    return this.cache.size;
  }

  private remember(tenantId: string, endUserId: string, keyId: string, key: Buffer): void {
    this.dropExpired();
    if (this.cache.size >= (this.options.maxCached ?? 100_000)) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(cacheKey(tenantId, endUserId, keyId), { key, at: this.now() });
  }

  /**
   * Drops the keys cached longer than cacheMs, oldest first (a key is remembered only when it is not cached, so the
   * map's order is the order of `at`). Most keys are read once, for one job's records, and never looked up again:
   * left for a lookup to expire them they stayed until maxCached, each holding its buffer and what that buffer was
   * cut from; a stage process's memory outside the JS heap grew by ~6 KB per job that way.
   */
  private dropExpired(): void {
    const oldest = this.now() - this.cacheMs;
    for (const [id, entry] of this.cache) {
      if (entry.at >= oldest) return;
      this.cache.delete(id);
    }
  }

  private get cacheMs(): number {
    return this.options.cacheMs ?? 5_000;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}

const cacheKey = (tenantId: string, endUserId: string, keyId: string) => `${tenantId}\u0000${endUserId}\u0000${keyId}`;
