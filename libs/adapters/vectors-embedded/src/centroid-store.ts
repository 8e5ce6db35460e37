import { MemoryServiceError } from '@memory/platform';
import type { Centroid, CentroidStore, Scope } from '@memory/ports';
import { scopedKey, scopeRange, storageError, type StoredCentroid, type VectorStorage } from './storage.js';
import { checkIds, checkScope } from './validate.js';

/** CentroidStore on LMDB: one centroid per end user plus one key per member memory id. */
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
    return { embeddingModel: stored.embeddingModel, sum, memoryCount: stored.memoryCount, similaritySum: stored.similaritySum };
  }

  async members(scope: Scope, memoryIds: string[]): Promise<Set<string>> {
    this.checkOpen();
    checkScope(scope);
    try {
      return new Set(checkIds(memoryIds).filter((id) => this.storage.centroidMembers.doesExist(scopedKey(scope, id))));
    } catch (error) {
      throw storageError('read', error);
    }
  }

  async save(scope: Scope, centroid: Centroid, newMemberIds: string[]): Promise<void> {
    this.checkOpen();
    checkScope(scope);
    checkCentroid(centroid);
    const ids = checkIds(newMemberIds);
    const stored: StoredCentroid = {
      embeddingModel: centroid.embeddingModel,
      sum: new Uint8Array(centroid.sum.buffer.slice(centroid.sum.byteOffset, centroid.sum.byteOffset + centroid.sum.byteLength)),
      memoryCount: centroid.memoryCount,
      similaritySum: centroid.similaritySum,
    };
    const { centroids, centroidMembers } = this.storage;
    await this.storage.durable(() => {
      centroids.put([scope.tenantId, scope.endUserId], stored);
      for (const id of ids) centroidMembers.put(scopedKey(scope, id), 1);
    });
  }

  async reset(scope: Scope): Promise<void> {
    this.checkOpen();
    checkScope(scope);
    const { centroids, centroidMembers } = this.storage;
    await this.storage.durable(() => {
      centroids.remove([scope.tenantId, scope.endUserId]);
      for (const key of centroidMembers.getKeys(scopeRange(scope))) centroidMembers.remove(key);
    });
    this.storage.markDeleted();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.storage.release();
  }

  private checkOpen(): void {
    if (this.closed) throw new MemoryServiceError('VECTORS.CLOSED', 'the centroid store is closed');
  }
}

function checkCentroid(centroid: Centroid): void {
  const ok =
    centroid?.sum instanceof Float32Array &&
    typeof centroid.embeddingModel === 'string' &&
    Number.isInteger(centroid.memoryCount) &&
    centroid.memoryCount >= 0 &&
    Number.isFinite(centroid.similaritySum);
  if (!ok) throw new MemoryServiceError('VECTORS.INVALID_CENTROID', 'a centroid needs a Float32Array sum, an embeddingModel, a whole memoryCount and a finite similaritySum');
}
