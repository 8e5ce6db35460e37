import type { Client, estypes } from '@elastic/elasticsearch';
import { MemoryServiceError } from '@memory/platform';
import type { Centroid, CentroidStore, Scope } from '@memory/ports';
import { bulk } from './bulk.js';
import type { SharedClient } from './client.js';
import { readDocument, writeIfUnchanged } from './documents.js';
import { call, readableDocs } from './errors.js';
import { deleteMatching } from './delete-matching.js';
import { KeyLock } from './key-lock.js';
import { documentId } from './names.js';
import { retryOnConflict } from './retry-conflicts.js';
import { checkCentroid, checkIds, checkScope } from './validate.js';

interface CentroidDocument {
  tenantId: string;
  endUserId: string;
  embeddingModel: string;
  sum: number[];
  memoryCount: number;
  similaritySum: number;
  /** The member ids of the last save; they may not have member documents yet. */
  pendingMemberIds: string[];
}

interface MemberDocument {
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
 * point: it carries the new centroid AND the ids it adds (pendingMemberIds), in one write. Member documents are a
 * materialisation of those ids, written after the commit and again, idempotently, at the start of the next save,
 * before its commit replaces the pending list. members() reads both, so an id counts as a member exactly when a
 * committed centroid includes it, whatever crash falls between the writes.
 *
 * Every read is by id (realtime), so no write waits for a refresh. One writer per end user is expected (the
 * calibrator's partitioning by user gives that); the centroid write is still conditional, so two writers cannot
 * drop each other's pending ids before they are materialised.
 */
export class ElasticsearchCentroidStore implements CentroidStore {
  private readonly client: Client;
  private readonly lock = new KeyLock();
  private closed = false;

  constructor(
    private readonly shared: SharedClient,
    private readonly indices: { centroids: string; members: string },
  ) {
    this.client = shared.acquire();
  }

  async get(scope: Scope): Promise<Centroid | null> {
    this.checkOpen();
    checkScope(scope);
    const found = await this.read(scope, `read the centroid of ${scope.tenantId}/${scope.endUserId}`);
    if (!found || !inScope(found.source, scope)) return null;
    const { embeddingModel, sum, memoryCount, similaritySum } = found.source;
    return { embeddingModel, sum: Float32Array.from(sum), memoryCount, similaritySum };
  }

  async members(scope: Scope, memoryIds: string[]): Promise<Set<string>> {
    this.checkOpen();
    checkScope(scope);
    const ids = checkIds(memoryIds);
    if (ids.length === 0) return new Set();
    const docs = [{ _index: this.indices.centroids, _id: centroidId(scope) }, ...ids.map((id) => ({ _index: this.indices.members, _id: memberId(scope, id) }))];
    const response = await call('VECTORS', `read centroid members of ${scope.tenantId}/${scope.endUserId}`, () =>
      this.client.mget<CentroidDocument | MemberDocument>({ docs }),
    );
    const [centroid, ...members] = readableDocs('VECTORS', `read centroid members of ${scope.tenantId}/${scope.endUserId}`, response.docs).map((doc) => ('found' in doc && doc.found && doc._source && inScope(doc._source, scope) ? doc._source : null));
    const pending = new Set((centroid as CentroidDocument | null)?.pendingMemberIds ?? []);
    return new Set(ids.filter((id, i) => members[i] !== null || pending.has(id)));
  }

  async save(scope: Scope, centroid: Centroid, newMemberIds: string[]): Promise<void> {
    this.checkOpen();
    checkScope(scope);
    checkCentroid(centroid);
    const ids = checkIds(newMemberIds);
    const what = `save the centroid of ${scope.tenantId}/${scope.endUserId}`;
    const document: CentroidDocument = {
      tenantId: scope.tenantId,
      endUserId: scope.endUserId,
      embeddingModel: centroid.embeddingModel,
      sum: Array.from(centroid.sum),
      memoryCount: centroid.memoryCount,
      similaritySum: centroid.similaritySum,
      pendingMemberIds: ids,
    };
    await this.lock.run(centroidId(scope), async () => {
      await retryOnConflict('VECTORS', what, async () => {
        const current = await this.read(scope, what);
        await this.materialise(scope, current?.source.pendingMemberIds ?? [], what);
        await writeIfUnchanged(this.client, 'VECTORS', what, { index: this.indices.centroids, id: centroidId(scope) }, document, current);
      });
      // Committed; should this fail, the ids still count as members through pendingMemberIds.
      await this.materialise(scope, ids, what);
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
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.shared.release();
  }

  private read(scope: Scope, what: string) {
    return readDocument<CentroidDocument>(this.client, 'VECTORS', what, this.indices.centroids, centroidId(scope));
  }

  private async materialise(scope: Scope, ids: string[], what: string): Promise<void> {
    if (ids.length === 0) return;
    const operations: estypes.BulkRequest['operations'] = [];
    for (const memoryId of ids) {
      const member: MemberDocument = { tenantId: scope.tenantId, endUserId: scope.endUserId, memoryId };
      operations.push({ index: { _index: this.indices.members, _id: memberId(scope, memoryId) } }, member);
    }
    await bulk(this.client, 'VECTORS', `${what}: record ${ids.length} members`, operations, false);
  }

  private checkOpen(): void {
    if (this.closed) throw new MemoryServiceError('VECTORS.CLOSED', 'the centroid store is closed');
  }
}
