import type { Client, estypes } from '@elastic/elasticsearch';
import { MemoryServiceError } from '@memory/platform';
import { acceptedAtOf, jobIdOfMemory, memoryIdPrefixOf } from '@memory/contracts';
import { erasureCovers, tombstonesCovering, type DataKeyStore, type KeyRequest, type KeySubject, type Scope } from '@memory/ports';
import type { SharedClient } from './client.js';
import { deleteMatching } from './delete-matching.js';
import { call, readableDocs } from './errors.js';
import { documentId } from './names.js';
import { DelayedExpunge } from './delayed-expunge.js';
import { readDocument, writeIfUnchanged } from './documents.js';
import { retryOnConflict } from './retry-conflicts.js';

interface SubjectDocument {
  kind: 'key' | 'tombstone';
  tenantId: string;
  endUserId: string;
  keyId: string;
  /** The subject's accept time, when its id has one: what an erasure compares. */
  acceptedAt: number | null;
  /** base64 of the data key; absent on a tombstone. */
  key?: string;
}

interface ErasureDocument {
  kind: 'erasure';
  tenantId: string;
  /** '' for a whole tenant. */
  endUserId: string;
  before: number;
}

const WHOLE_TENANT = '';
const subjectId = (scope: Scope, keyId: string) => documentId('key', scope.tenantId, scope.endUserId, keyId);
const erasureId = (tenantId: string, endUserId: string) => documentId('erasure', tenantId, endUserId);
/** A scope as a Map key. */
const scopeKey = (scope: Scope) => JSON.stringify([scope.tenantId, scope.endUserId]);

/**
 * DataKeyStore on one index: a document per subject (its key, or its tombstone once forgotten, under the same _id)
 * and one per erasure, whose boundary only moves forward (a conditional write, see recordErasure). Reads by id are
 * realtime GETs, so a key is readable the moment it is created and a tombstone is seen at once by every process.
 *
 * A destroyed key's old version stays in the index's segments as a soft-deleted document until a merge drops it;
 * every forget and erase asks for one (DelayedExpunge).
 */
export class ElasticsearchKeyStore implements DataKeyStore {
  private readonly client: Client;
  private closed = false;
  private readonly expunge: DelayedExpunge;

  constructor(
    private readonly shared: SharedClient,
    private readonly index: string,
    expungeDelayMs: number,
  ) {
    this.client = shared.acquire();
    this.expunge = new DelayedExpunge(this.client, index, expungeDelayMs);
  }

  async get(scope: Scope, keyIds: string[]): Promise<Map<string, Buffer>> {
    this.checkOpen();
    const found = new Map<string, Buffer>();
    const docs = await this.subjects(scope, keyIds);
    for (const [keyId, doc] of docs) if (doc.kind === 'key' && doc.key) found.set(keyId, Buffer.from(doc.key, 'base64'));
    return found;
  }

  async create(requests: KeyRequest[]): Promise<Array<Buffer | null>> {
    this.checkOpen();
    if (requests.length === 0) return [];
    const operations = requests.flatMap(({ scope, keyId, key }) => [
      { create: { _index: this.index, _id: subjectId(scope, keyId) } },
      { kind: 'key', tenantId: scope.tenantId, endUserId: scope.endUserId, keyId, acceptedAt: acceptedAtOf(keyId), key: key.toString('base64') } satisfies SubjectDocument,
    ]);
    const scopes = [...new Map(requests.map(({ scope }) => [scopeKey(scope), scope])).values()];
    const [bulk, ...coverings] = await Promise.all([
      call('KEYS', `create ${requests.length} data keys`, () => this.client.bulk({ operations, refresh: false })),
      ...scopes.map((scope) => this.coveringOf(scope, requests.filter((r) => r.scope.tenantId === scope.tenantId && r.scope.endUserId === scope.endUserId).map((r) => r.keyId))),
    ]);
    const coveredIn = new Map(scopes.map((scope, i) => [scopeKey(scope), coverings[i]!]));
    const result: Array<Buffer | null> = requests.map(({ key }) => key);
    const lost: number[] = [];
    bulk.items.forEach((item, i) => {
      const outcome = item.create!;
      if (outcome.status === 409) lost.push(i);
      else if (outcome.error) throw new MemoryServiceError('KEYS.STORAGE', `creating data key ${requests[i]!.keyId} failed: ${outcome.error.reason ?? outcome.error.type}`, { retriable: true });
    });
    // Another writer created the subject first: its key (or its tombstone) is the answer.
    for (const i of lost) {
      const { scope, keyId } = requests[i]!;
      const doc = (await this.subjects(scope, [keyId])).get(keyId);
      result[i] = doc?.kind === 'key' && doc.key ? Buffer.from(doc.key, 'base64') : null;
    }
    // Created after an erasure or a job's tombstone that covers it: take it back, so it never gets a readable key.
    const erased = requests.map((request, i) => ({ ...request, i })).filter(({ scope, keyId, i }) => result[i] !== null && coveredIn.get(scopeKey(scope))!(keyId));
    for (const { scope, keyId, i } of erased) {
      await this.forget(scope, [keyId]);
      result[i] = null;
    }
    return result;
  }

  /** Whether an erasure of the subject's end user or tenant, or its job's tombstone, forgets it. */
  private async coveringOf(scope: Scope, keyIds: string[]): Promise<(keyId: string) => boolean> {
    const parents = [...new Set(keyIds.flatMap((keyId) => tombstonesCovering(keyId).slice(1)))];
    const { subjects: parentDocs, erasures } = await this.subjectsAndErasures(scope, parents);
    return (keyId) => erasures.some((before) => erasureCovers(keyId, before)) || tombstonesCovering(keyId).some((id) => parentDocs.get(id)?.kind === 'tombstone');
  }

  async forget(scope: Scope, keyIds: string[]): Promise<number> {
    this.checkOpen();
    const unique = [...new Set(keyIds)];
    if (unique.length === 0) return 0;
    const existing = await this.subjects(scope, unique);
    const parts = await this.partsOf(scope, unique);
    const operations = unique.flatMap((keyId) => [
      { index: { _index: this.index, _id: subjectId(scope, keyId) } },
      { kind: 'tombstone', tenantId: scope.tenantId, endUserId: scope.endUserId, keyId, acceptedAt: acceptedAtOf(keyId) } satisfies SubjectDocument,
    ]);
    const bulk = await call('KEYS', `forget ${unique.length} data keys`, () => this.client.bulk({ operations, refresh: false }));
    if (bulk.errors) throw new MemoryServiceError('KEYS.STORAGE', 'forgetting data keys failed in part; retry', { retriable: true });
    if (parts.length > 0) {
      const removed = await call('KEYS', `destroy ${parts.length} part keys`, () =>
        this.client.bulk({ operations: parts.map((keyId) => ({ delete: { _index: this.index, _id: subjectId(scope, keyId) } })), refresh: false }),
      );
      if (removed.errors) throw new MemoryServiceError('KEYS.STORAGE', 'destroying part keys failed in part; retry', { retriable: true });
    }
    this.expunge.schedule();
    return [...existing.values()].filter((doc) => doc.kind === 'key').length + parts.length;
  }

  async erase(scope: { tenantId: string; endUserId: string | null }, before: number): Promise<number> {
    this.checkOpen();
    const endUserId = scope.endUserId ?? WHOLE_TENANT;
    await this.recordErasure(scope.tenantId, endUserId, before);
    const filter: estypes.QueryDslQueryContainer[] = [{ term: { kind: 'key' } }, { term: { tenantId: scope.tenantId } }];
    if (scope.endUserId !== null) filter.push({ term: { endUserId: scope.endUserId } });
    const destroyed = await deleteMatching(this.client, 'KEYS', `destroy the keys of ${scope.tenantId}/${endUserId}`, this.index, {
      bool: { filter, should: [{ range: { acceptedAt: { lt: before } } }, { bool: { must_not: { exists: { field: 'acceptedAt' } } } }], minimum_should_match: 1 },
    });
    this.expunge.schedule();
    return destroyed;
  }

  /**
   * Moves the erasure boundary of an end user (or a tenant) forward to `before`, never back: a realtime read, then a
   * write conditional on the version read (create when there is none), again from a fresh read when another
   * erasure wrote first. Two erasures written at once thus end with the later boundary, whichever lands last.
   */
  private async recordErasure(tenantId: string, endUserId: string, before: number): Promise<void> {
    const what = `record the erasure of ${tenantId}/${endUserId}`;
    const id = erasureId(tenantId, endUserId);
    await retryOnConflict('KEYS', what, async () => {
      const current = await readDocument<SubjectDocument | ErasureDocument>(this.client, 'KEYS', what, this.index, id);
      if (current?.source.kind === 'erasure' && current.source.before >= before) return;
      await writeIfUnchanged(this.client, 'KEYS', what, { index: this.index, id }, { kind: 'erasure', tenantId, endUserId, before } satisfies ErasureDocument, current);
    });
  }

  async forgotten(scope: Scope, keyIds: string[]): Promise<Set<string>> {
    this.checkOpen();
    const { subjects: docs, erasures } = await this.subjectsAndErasures(scope, [...new Set(keyIds.flatMap(tombstonesCovering))]);
    const tombstoned = (keyId: string) => tombstonesCovering(keyId).some((id) => docs.get(id)?.kind === 'tombstone');
    return new Set(keyIds.filter((keyId) => tombstoned(keyId) || erasures.some((before) => erasureCovers(keyId, before))));
  }

  /** One realtime mget of each scope's end user and tenant erasure documents. */
  async erasedAmong(subjects: KeySubject[]): Promise<boolean[]> {
    this.checkOpen();
    if (subjects.length === 0) return [];
    const scopes = [...new Map(subjects.map(({ scope }) => [scopeKey(scope), scope])).values()];
    const { erasures } = await this.read(scopes[0]!, [], scopes);
    const erasuresOf = new Map(scopes.map((scope, i) => [scopeKey(scope), erasures[i]!]));
    return subjects.map(({ scope, keyId }) => erasuresOf.get(scopeKey(scope))!.some((before) => erasureCovers(keyId, before)));
  }

  async *entries(): AsyncIterable<{ scope: Scope; keyId: string; key: Buffer }> {
    this.checkOpen();
    let after: estypes.SortResults | undefined;
    for (;;) {
      const page = await call('KEYS', 'list data keys', () =>
        this.client.search<SubjectDocument>({ index: this.index, size: 1000, query: { term: { kind: 'key' } }, sort: [{ tenantId: 'asc' }, { endUserId: 'asc' }, { keyId: 'asc' }], ...(after ? { search_after: after } : {}) }),
      );
      for (const hit of page.hits.hits) {
        const doc = hit._source!;
        if (doc.key) yield { scope: { tenantId: doc.tenantId, endUserId: doc.endUserId }, keyId: doc.keyId, key: Buffer.from(doc.key, 'base64') };
      }
      if (page.hits.hits.length < 1000) return;
      after = page.hits.hits[page.hits.hits.length - 1]!.sort;
    }
  }

  /** Elasticsearch drops a destroyed key's old version at a merge, asked for at each destruction (DelayedExpunge). */
  async scrub(): Promise<void> {
    this.checkOpen();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.expunge.cancel();
    await this.shared.release();
  }

  private async subjects(scope: Scope, keyIds: string[]): Promise<Map<string, SubjectDocument>> {
    if (keyIds.length === 0) return new Map();
    return (await this.read(scope, keyIds, [])).subjects;
  }

  /**
   * The subjects' documents and the accept times before which the end user's and the tenant's erasures forget
   * everything (0 when none): what deciding whether a subject is forgotten needs, in one request.
   */
  private async subjectsAndErasures(scope: Scope, keyIds: string[]): Promise<{ subjects: Map<string, SubjectDocument>; erasures: [user: number, tenant: number] }> {
    const { subjects, erasures } = await this.read(scope, keyIds, [scope]);
    return { subjects, erasures: erasures[0]! };
  }

  /**
   * One realtime mget of one end user's subjects, and of the erasures of each of `erasuresOf` (its end user's and its
   * tenant's, each tenant's read once).
   */
  private async read(scope: Scope, keyIds: string[], erasuresOf: Scope[]): Promise<{ subjects: Map<string, SubjectDocument>; erasures: Array<[user: number, tenant: number]> }> {
    const tenants = [...new Set(erasuresOf.map(({ tenantId }) => tenantId))];
    const ids = [
      ...keyIds.map((keyId) => subjectId(scope, keyId)),
      ...erasuresOf.map(({ tenantId, endUserId }) => erasureId(tenantId, endUserId)),
      ...tenants.map((tenantId) => erasureId(tenantId, WHOLE_TENANT)),
    ];
    const whose = erasuresOf.length === 1 ? `${erasuresOf[0]!.tenantId}/${erasuresOf[0]!.endUserId}` : `${erasuresOf.length} end users`;
    const what = `read ${keyIds.length} data keys${erasuresOf.length > 0 ? ` and the erasures of ${whose}` : ''}`;
    const response = await call('KEYS', what, () => this.client.mget<SubjectDocument | ErasureDocument>({ index: this.index, ids }));
    const docs = readableDocs('KEYS', what, response.docs).map((doc) => ('found' in doc && doc.found ? doc._source : undefined));
    const subjects = new Map<string, SubjectDocument>();
    keyIds.forEach((keyId, i) => {
      const source = docs[i];
      // The _id is a hash; the fields are checked too, so a collision could never hand out another subject's key.
      if (source && source.kind !== 'erasure' && source.tenantId === scope.tenantId && source.endUserId === scope.endUserId && source.keyId === keyId) subjects.set(keyId, source);
    });
    const before = (doc: SubjectDocument | ErasureDocument | undefined) => (doc?.kind === 'erasure' ? doc.before : 0);
    const tenantBefore = new Map(tenants.map((tenantId, t) => [tenantId, before(docs[keyIds.length + erasuresOf.length + t])]));
    const erasures = erasuresOf.map(({ tenantId }, j): [number, number] => [before(docs[keyIds.length + j]), tenantBefore.get(tenantId)!]);
    return { subjects, erasures };
  }

  /** The key ids of the parts (`mem_<jobId>_<n>`) of these jobs that have keys. */
  private async partsOf(scope: Scope, jobIds: string[]): Promise<string[]> {
    await call('KEYS', 'refresh the key index', () => this.client.indices.refresh({ index: this.index }));
    const response = await call('KEYS', 'find part keys', () =>
      this.client.search<SubjectDocument>({
        index: this.index,
        size: 10_000,
        _source: ['keyId'],
        query: { bool: { filter: [{ term: { kind: 'key' } }, { term: { tenantId: scope.tenantId } }, { term: { endUserId: scope.endUserId } }], should: jobIds.map((jobId) => ({ prefix: { keyId: memoryIdPrefixOf(jobId) } })), minimum_should_match: 1 } },
      }),
    );
    return response.hits.hits.map((hit) => hit._source!.keyId).filter((keyId) => jobIds.includes(jobIdOfMemory(keyId) ?? ''));
  }

  private checkOpen(): void {
    if (this.closed) throw new MemoryServiceError('KEYS.CLOSED', 'the key store is closed');
  }
}
