import { MemoryServiceError } from '@memory/platform';
import { randomUUID } from 'node:crypto';
import { centroidChanged, checkCentroid, checkCentroidMembers, checkReplacement, type Centroid, type CentroidMember, type CentroidStore, type Scope } from '@memory/ports';
import { scopedKey, scopeRange, storageError, type StoredCentroid, type StoredMember, type VectorStorage } from './storage.js';
import { checkIds, checkScope } from './validate.js';

/** CentroidStore on LMDB: one centroid per end user plus one key per member memory id, holding its version and share. */
export class EmbeddedCentroidStore implements CentroidStore {
  private closed = false;

  constructor(private readonly storage: VectorStorage) {}

  async get(scope: Scope): Promise<Centroid | null> {
    this.checkOpen();
    checkScope(scope);
    let stored: StoredCentroid | undefined;
    try {
      stored = this.storage.centroids.get([scope.tenantId, scope.endUserId]);
    } catch (error) {
      throw storageError('read', error);
    }
    if (!stored) return null;
    // Copy into a fresh buffer: the decoded bytes may sit at an offset a Float32Array view cannot start at.
    const sum = new Float32Array(Uint8Array.from(stored.sum).buffer);
    return { embeddingModel: stored.embeddingModel, sum, memoryCount: stored.memoryCount, similaritySum: stored.similaritySum, revision: stored.revision ?? '' };
  }

  async members(scope: Scope, memoryIds: string[]): Promise<Map<string, CentroidMember | null>> {
    this.checkOpen();
    checkScope(scope);
    const found = new Map<string, CentroidMember | null>();
    try {
      for (const id of checkIds(memoryIds)) {
        const stored = this.storage.centroidMembers.get(scopedKey(scope, id));
        if (stored !== undefined) found.set(id, memberOf(stored));
      }
    } catch (error) {
      throw storageError('read', error);
    }
    return found;
  }

  async save(scope: Scope, centroid: Centroid, changedMembers: ReadonlyMap<string, CentroidMember>, condition?: { ifRevision: string | null }): Promise<void> {
    this.checkOpen();
    checkScope(scope);
    checkCentroid(centroid);
    const members = checkCentroidMembers(changedMembers);
    const stored = storedCentroid(centroid);
    const { centroids, centroidMembers } = this.storage;
    await this.storage.durable(() => {
      if (condition) this.checkRevision(scope, condition.ifRevision);
      centroids.put([scope.tenantId, scope.endUserId], stored);
      for (const [id, member] of members) centroidMembers.put(scopedKey(scope, id), member);
    });
  }

  async replace(scope: Scope, centroid: Centroid | null, members: ReadonlyMap<string, CentroidMember>, condition: { ifRevision: string | null }): Promise<void> {
    this.checkOpen();
    checkScope(scope);
    const entries = checkReplacement(centroid, members);
    const stored = centroid ? storedCentroid(centroid) : null;
    const { centroids, centroidMembers } = this.storage;
    // A replace drops members, which may be forgotten memories: their keys' bytes go at the next compaction.
    await this.storage.markDeleting();
    await this.storage.durable(() => {
      this.checkRevision(scope, condition.ifRevision);
      for (const key of centroidMembers.getKeys(scopeRange(scope))) centroidMembers.remove(key);
      if (stored) centroids.put([scope.tenantId, scope.endUserId], stored);
      else centroids.remove([scope.tenantId, scope.endUserId]);
      for (const [id, member] of entries) centroidMembers.put(scopedKey(scope, id), member);
    });
  }

  async reset(scope: Scope): Promise<void> {
    this.checkOpen();
    checkScope(scope);
    const { centroids, centroidMembers } = this.storage;
    await this.storage.markDeleting();
    await this.storage.durable(() => {
      centroids.remove([scope.tenantId, scope.endUserId]);
      for (const key of centroidMembers.getKeys(scopeRange(scope))) centroidMembers.remove(key);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.storage.release();
  }

  /** Inside a write transaction: the stored centroid is still the revision read (null: still absent). */
  private checkRevision(scope: Scope, ifRevision: string | null): void {
    const current = this.storage.centroids.get([scope.tenantId, scope.endUserId]);
    if ((current ? (current.revision ?? '') : null) !== ifRevision) throw centroidChanged(scope, ifRevision);
  }

  private checkOpen(): void {
    if (this.closed) throw new MemoryServiceError('VECTORS.CLOSED', 'the centroid store is closed');
  }
}

/** A fresh revision with every write, so a save after a replace never matches a revision read before it. */
function storedCentroid(centroid: Centroid): StoredCentroid {
  return {
    embeddingModel: centroid.embeddingModel,
    sum: new Uint8Array(centroid.sum.buffer.slice(centroid.sum.byteOffset, centroid.sum.byteOffset + centroid.sum.byteLength)),
    memoryCount: centroid.memoryCount,
    similaritySum: centroid.similaritySum,
    revision: randomUUID(),
  };
}

/** Members recorded before they carried their version were stored as 1. */
function memberOf(stored: StoredMember): CentroidMember | null {
  return typeof stored === 'object' && stored !== null ? { version: stored.version, similarity: stored.similarity } : null;
}
