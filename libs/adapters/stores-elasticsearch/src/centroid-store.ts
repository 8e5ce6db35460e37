import type { Client, estypes } from '@elastic/elasticsearch';
import { MemoryServiceError } from '@memory/platform';
import { randomUUID } from 'node:crypto';
import { centroidChanged, checkCentroid, checkCentroidMembers, checkReplacement, type Centroid, type CentroidMember, type CentroidStore, type Scope } from '@memory/ports';
import { bulk } from './bulk.js';
import type { SharedClient } from './client.js';
import { deleteIfUnchanged, readDocument, writeIfUnchanged, type Versioned } from './documents.js';
import { call, readableDocs } from './errors.js';
import { deleteMatching } from './delete-matching.js';
import { DelayedExpunge } from './delayed-expunge.js';
import { KeyLock } from './key-lock.js';
import { documentId } from './names.js';
import { retryOnConflict, VersionConflict } from './retry-conflicts.js';
import { checkIds, checkScope } from './validate.js';

interface CentroidDocument {
  tenantId: string;
  endUserId: string;
  embeddingModel: string;
  sum: number[];
  memoryCount: number;
  similaritySum: number;
  /** Which member documents count: those written with this generation (none before the first replace). */
  generation?: string;
  /** The members of the last save; they may not have member documents yet. */
  pendingMembers?: PendingMember[];
  /** What saves wrote before members carried their version: ids only. */
  pendingMemberIds?: string[];
}

interface PendingMember extends CentroidMember {
  memoryId: string;
}

interface MemberDocument extends Partial<CentroidMember> {
  tenantId: string;
  endUserId: string;
  memoryId: string;
  generation?: string;
}

const MATERIALISE_PAGE = 1_000;
/** A members() read that keeps meeting a replace between its two reads gives up (retriably) after this many. */
const MEMBER_READ_ROUNDS = 5;

const centroidId = (scope: Scope) => documentId(scope.tenantId, scope.endUserId);
/** A generation's member documents have ids of their own, so a late write of another generation cannot overwrite one. */
const memberId = (scope: Scope, memoryId: string, generation: string | undefined) =>
  generation === undefined ? documentId(scope.tenantId, scope.endUserId, memoryId) : documentId(scope.tenantId, scope.endUserId, memoryId, generation);
const inScope = (source: { tenantId: string; endUserId: string }, scope: Scope) => source.tenantId === scope.tenantId && source.endUserId === scope.endUserId;

/**
 * CentroidStore on two indices: one centroid document per end user, one member document per memory id folded in.
 *
 * Elasticsearch writes one document atomically and never several, so save() makes the centroid document the commit
 * point: it carries the new centroid AND the members it adds or changes (pendingMembers), in one write. Member
 * documents are a materialisation of those, written after the commit and again, idempotently, at the start of the
 * next save, before its commit replaces the pending list. members() reads both, the pending entry first, so a member
 * is what the last committed centroid says of it, whatever crash falls between the writes.
 *
 * replace() swaps the whole member list: it writes the new members under a new generation (their ids include it, so
 * nothing reads them yet), makes the centroid document name that generation in one conditional write (the commit
 * point), then deletes the member documents of the generation it replaced (only that one: another process may have
 * replaced this one since). Documents of a replace that lost its condition or whose process died before the commit,
 * and a save's late writes under a replaced generation, name a generation no centroid names and count for nothing
 * (reset() removes them with the rest). Processes of schema 9 write centroids without a generation: stop them all
 * before starting those of schema 10 (README, Upgrades).
 *
 * Every read is by id (realtime), so no write waits for a refresh. One writer per end user is expected (the
 * calibrator's partitioning by user gives that); the centroid write is still conditional, so two writers cannot
 * drop each other's pending ids before they are materialised.
 */
export class ElasticsearchCentroidStore implements CentroidStore {
  private readonly client: Client;
  private readonly lock = new KeyLock();
  private readonly expunge: DelayedExpunge;
  private closed = false;

  constructor(
    private readonly shared: SharedClient,
    private readonly indices: { centroids: string; members: string },
    expungeDelayMs: number,
  ) {
    this.client = shared.acquire();
    this.expunge = new DelayedExpunge(this.client, indices.centroids, expungeDelayMs);
  }

  async get(scope: Scope): Promise<Centroid | null> {
    this.checkOpen();
    checkScope(scope);
    const found = await this.read(scope, `read the centroid of ${scope.tenantId}/${scope.endUserId}`);
    if (!found || !inScope(found.source, scope)) return null;
    const { embeddingModel, sum, memoryCount, similaritySum } = found.source;
    return { embeddingModel, sum: Float32Array.from(sum), memoryCount, similaritySum, revision: revisionOf(found) };
  }

  async members(scope: Scope, memoryIds: string[]): Promise<Map<string, CentroidMember | null>> {
    this.checkOpen();
    checkScope(scope);
    const ids = checkIds(memoryIds);
    if (ids.length === 0) return new Map();
    const what = `read centroid members of ${scope.tenantId}/${scope.endUserId}`;
    // The centroid first: it says which generation of member documents counts. It is read again with them, and a
    // replace in between (a new generation, the old one's documents deleted) sends the read round once more.
    let read = await this.read(scope, what);
    for (let round = 1; ; round++) {
      const centroid = read && inScope(read.source, scope) ? read.source : null;
      if (!read || !centroid) return new Map();
      const docs = [{ _index: this.indices.centroids, _id: centroidId(scope) }, ...ids.map((id) => ({ _index: this.indices.members, _id: memberId(scope, id, centroid.generation) }))];
      const response = await call('VECTORS', what, () => this.client.mget<CentroidDocument | MemberDocument>({ docs }));
      const [again, ...members] = readableDocs('VECTORS', what, response.docs).map((doc) =>
        'found' in doc && doc.found && doc._source && inScope(doc._source, scope) ? { source: doc._source, seqNo: doc._seq_no!, primaryTerm: doc._primary_term! } : null,
      );
      if (!again || revisionOf(again) !== revisionOf(read)) {
        if (round >= MEMBER_READ_ROUNDS) throw centroidChanged(scope, revisionOf(read));
        read = again as Versioned<CentroidDocument> | null;
        continue;
      }
      const pending = pendingOf(centroid);
      const found = new Map<string, CentroidMember | null>();
      ids.forEach((id, i) => {
        if (pending.has(id)) found.set(id, pending.get(id)!);
        else if (members[i]) found.set(id, memberOf(members[i]!.source as MemberDocument));
      });
      return found;
    }
  }

  async save(scope: Scope, centroid: Centroid, changedMembers: ReadonlyMap<string, CentroidMember>, condition?: { ifRevision: string | null }): Promise<void> {
    this.checkOpen();
    checkScope(scope);
    checkCentroid(centroid);
    const members = checkCentroidMembers(changedMembers);
    const what = `save the centroid of ${scope.tenantId}/${scope.endUserId}`;
    await this.lock.run(centroidId(scope), async () => {
      const generation = await retryOnConflict('VECTORS', what, async () => {
        const current = await this.read(scope, what);
        if (condition && (current ? revisionOf(current) : null) !== condition.ifRevision) throw centroidChanged(scope, condition.ifRevision);
        // A new centroid starts a generation of its own, so no member document left from before it counts.
        const generation = current ? current.source.generation : randomUUID();
        await this.materialise(scope, [...pendingOf(current?.source ?? null)], generation, what);
        await writeIfUnchanged(this.client, 'VECTORS', what, { index: this.indices.centroids, id: centroidId(scope) }, this.document(scope, centroid, generation, members), current);
        return generation;
      });
      // Committed; should this fail, they still count as members through pendingMembers.
      await this.materialise(scope, members, generation, what);
    });
  }

  async replace(scope: Scope, centroid: Centroid | null, members: ReadonlyMap<string, CentroidMember>, condition: { ifRevision: string | null }): Promise<void> {
    this.checkOpen();
    checkScope(scope);
    const entries = checkReplacement(centroid, members);
    const what = `replace the centroid of ${scope.tenantId}/${scope.endUserId}`;
    await this.lock.run(centroidId(scope), async () => {
      const current = await this.read(scope, what);
      if ((current ? revisionOf(current) : null) !== condition.ifRevision) throw centroidChanged(scope, condition.ifRevision);
      const generation = randomUUID();
      try {
        if (centroid) {
          for (let i = 0; i < entries.length; i += MATERIALISE_PAGE) await this.materialise(scope, entries.slice(i, i + MATERIALISE_PAGE), generation, what);
          await writeIfUnchanged(this.client, 'VECTORS', what, { index: this.indices.centroids, id: centroidId(scope) }, this.document(scope, centroid, generation, []), current);
        } else if (current) {
          await deleteIfUnchanged(this.client, 'VECTORS', what, { index: this.indices.centroids, id: centroidId(scope) }, current);
        }
      } catch (error) {
        if (!(error instanceof VersionConflict)) throw error;
        await this.deleteMembers(scope, { generation }, what).catch(() => undefined);
        throw centroidChanged(scope, condition.ifRevision);
      }
      // Only what the replaced centroid counted: another process may have replaced this one since, and its
      // generation's documents are the ones that count now.
      if (current) await this.deleteMembers(scope, { generation: current.source.generation ?? null }, what);
    });
    // The replaced versions of the centroid document sum what the replace left out (a forgotten memory's vector).
    this.expunge.schedule();
  }

  async reset(scope: Scope): Promise<void> {
    this.checkOpen();
    checkScope(scope);
    const what = `reset the centroid of ${scope.tenantId}/${scope.endUserId}`;
    await this.lock.run(centroidId(scope), async () => {
      await call('VECTORS', what, () => this.client.delete({ index: this.indices.centroids, id: centroidId(scope) }, { ignore: [404] }));
      await this.deleteMembers(scope, 'all', what);
    });
    // The centroid sums the user's memory vectors, its older versions (one per save) too: an erasure drops them all.
    this.expunge.schedule();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.expunge.cancel();
    await this.shared.release();
  }

  private read(scope: Scope, what: string) {
    return readDocument<CentroidDocument>(this.client, 'VECTORS', what, this.indices.centroids, centroidId(scope));
  }

  private document(scope: Scope, centroid: Centroid, generation: string | undefined, members: Array<[string, CentroidMember]>): CentroidDocument {
    return {
      tenantId: scope.tenantId,
      endUserId: scope.endUserId,
      embeddingModel: centroid.embeddingModel,
      sum: Array.from(centroid.sum),
      memoryCount: centroid.memoryCount,
      similaritySum: centroid.similaritySum,
      ...(generation === undefined ? {} : { generation }),
      pendingMembers: members.map(([memoryId, member]) => ({ memoryId, ...member })),
    };
  }

  private async materialise(scope: Scope, members: Array<[string, CentroidMember | null]>, generation: string | undefined, what: string): Promise<void> {
    if (members.length === 0) return;
    const operations: estypes.BulkRequest['operations'] = [];
    for (const [memoryId, member] of members) {
      const document: MemberDocument = { tenantId: scope.tenantId, endUserId: scope.endUserId, memoryId, ...member, ...(generation === undefined ? {} : { generation }) };
      operations.push({ index: { _index: this.indices.members, _id: memberId(scope, memoryId, generation) } }, document);
    }
    await bulk(this.client, 'VECTORS', `${what}: record ${members.length} members`, operations, false);
  }

  /** Deletes the end user's member documents: of one generation (null: those written before generations), or all. */
  private deleteMembers(scope: Scope, which: { generation: string | null } | 'all', what: string): Promise<number> {
    const filter: estypes.QueryDslQueryContainer[] = [{ term: { tenantId: scope.tenantId } }, { term: { endUserId: scope.endUserId } }];
    const mustNot: estypes.QueryDslQueryContainer[] = [];
    if (which !== 'all' && which.generation !== null) filter.push({ term: { generation: which.generation } });
    if (which !== 'all' && which.generation === null) mustNot.push({ exists: { field: 'generation' } });
    return deleteMatching(this.client, 'VECTORS', `${what}: delete members`, this.indices.members, { bool: { filter, must_not: mustNot } });
  }

  private checkOpen(): void {
    if (this.closed) throw new MemoryServiceError('VECTORS.CLOSED', 'the centroid store is closed');
  }
}

/** The members a centroid document names as pending; those of a save from before versions were kept have none. */
function pendingOf(document: CentroidDocument | null): Map<string, CentroidMember | null> {
  const pending = new Map<string, CentroidMember | null>((document?.pendingMemberIds ?? []).map((id) => [id, null]));
  for (const { memoryId, version, similarity } of document?.pendingMembers ?? []) pending.set(memoryId, { version, similarity });
  return pending;
}

function memberOf(document: MemberDocument): CentroidMember | null {
  return document.version === undefined || document.similarity === undefined ? null : { version: document.version, similarity: document.similarity };
}

/** Sequence numbers grow with every write of the shard, a delete and a new document included, so none repeats. */
function revisionOf(document: Pick<Versioned<unknown>, 'seqNo' | 'primaryTerm'>): string {
  return `${document.seqNo}:${document.primaryTerm}`;
}
