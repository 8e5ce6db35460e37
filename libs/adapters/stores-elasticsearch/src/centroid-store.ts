import type { Client, estypes } from '@elastic/elasticsearch';
import { MemoryServiceError } from '@memory/platform';
import { centroidChanged, checkCentroid, checkCentroidMembers, type Centroid, type CentroidMember, type CentroidStore, type Scope } from '@memory/ports';
import { bulk } from './bulk.js';
import type { SharedClient } from './client.js';
import { readDocument, writeIfUnchanged } from './documents.js';
import { call, readableDocs } from './errors.js';
import { deleteMatching } from './delete-matching.js';
import { DelayedExpunge } from './delayed-expunge.js';
import { KeyLock } from './key-lock.js';
import { documentId } from './names.js';
import { retryOnConflict } from './retry-conflicts.js';
import { checkIds, checkScope } from './validate.js';

interface CentroidDocument {
  tenantId: string;
  endUserId: string;
  embeddingModel: string;
  sum: number[];
  memoryCount: number;
  similaritySum: number;
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
}

const centroidId = (scope: Scope) => documentId(scope.tenantId, scope.endUserId);
const memberId = (scope: Scope, memoryId: string) => documentId(scope.tenantId, scope.endUserId, memoryId);
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
    const docs = [{ _index: this.indices.centroids, _id: centroidId(scope) }, ...ids.map((id) => ({ _index: this.indices.members, _id: memberId(scope, id) }))];
    const response = await call('VECTORS', `read centroid members of ${scope.tenantId}/${scope.endUserId}`, () =>
      this.client.mget<CentroidDocument | MemberDocument>({ docs }),
    );
    const [centroid, ...members] = readableDocs('VECTORS', `read centroid members of ${scope.tenantId}/${scope.endUserId}`, response.docs).map((doc) => ('found' in doc && doc.found && doc._source && inScope(doc._source, scope) ? doc._source : null));
    const pending = pendingOf(centroid as CentroidDocument | null);
    const found = new Map<string, CentroidMember | null>();
    ids.forEach((id, i) => {
      if (pending.has(id)) found.set(id, pending.get(id)!);
      else if (members[i]) found.set(id, memberOf(members[i] as MemberDocument));
    });
    return found;
  }

  async save(scope: Scope, centroid: Centroid, changedMembers: ReadonlyMap<string, CentroidMember>, condition?: { ifRevision: string | null }): Promise<void> {
    this.checkOpen();
    checkScope(scope);
    checkCentroid(centroid);
    const members = checkCentroidMembers(changedMembers).map(([memoryId, member]): PendingMember => ({ memoryId, ...member }));
    const what = `save the centroid of ${scope.tenantId}/${scope.endUserId}`;
    const document: CentroidDocument = {
      tenantId: scope.tenantId,
      endUserId: scope.endUserId,
      embeddingModel: centroid.embeddingModel,
      sum: Array.from(centroid.sum),
      memoryCount: centroid.memoryCount,
      similaritySum: centroid.similaritySum,
      pendingMembers: members,
    };
    await this.lock.run(centroidId(scope), async () => {
      await retryOnConflict('VECTORS', what, async () => {
        const current = await this.read(scope, what);
        if (condition && (current ? revisionOf(current) : null) !== condition.ifRevision) throw centroidChanged(scope, condition.ifRevision);
        await this.materialise(scope, [...pendingOf(current?.source ?? null)], what);
        await writeIfUnchanged(this.client, 'VECTORS', what, { index: this.indices.centroids, id: centroidId(scope) }, document, current);
      });
      // Committed; should this fail, they still count as members through pendingMembers.
      await this.materialise(scope, members.map((member) => [member.memoryId, member]), what);
    });
  }

  async reset(scope: Scope): Promise<void> {
    this.checkOpen();
    checkScope(scope);
    const what = `reset the centroid of ${scope.tenantId}/${scope.endUserId}`;
    await this.lock.run(centroidId(scope), async () => {
      await call('VECTORS', what, () => this.client.delete({ index: this.indices.centroids, id: centroidId(scope) }, { ignore: [404] }));
      await deleteMatching(this.client, 'VECTORS', what, this.indices.members, { bool: { filter: [{ term: { tenantId: scope.tenantId } }, { term: { endUserId: scope.endUserId } }] } });
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

  private async materialise(scope: Scope, members: Array<[string, CentroidMember | null]>, what: string): Promise<void> {
    if (members.length === 0) return;
    const operations: estypes.BulkRequest['operations'] = [];
    for (const [memoryId, member] of members) {
      const document: MemberDocument = { tenantId: scope.tenantId, endUserId: scope.endUserId, memoryId, ...member };
      operations.push({ index: { _index: this.indices.members, _id: memberId(scope, memoryId) } }, document);
    }
    await bulk(this.client, 'VECTORS', `${what}: record ${members.length} members`, operations, false);
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
function revisionOf(document: { seqNo: number; primaryTerm: number }): string {
  return `${document.seqNo}:${document.primaryTerm}`;
}
