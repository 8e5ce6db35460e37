import { MemoryServiceError } from '@memory/platform';
import type { Centroid, CentroidMember } from './vector-store.js';

/** What every CentroidStore refuses to save: a centroid that search could not use. */
export function checkCentroid(centroid: Centroid): void {
  const valid =
    centroid?.sum instanceof Float32Array &&
    centroid.sum.every(Number.isFinite) &&
    typeof centroid.embeddingModel === 'string' &&
    Number.isInteger(centroid.memoryCount) &&
    centroid.memoryCount >= 0 &&
    Number.isFinite(centroid.similaritySum);
  if (!valid) {
    throw new MemoryServiceError('VECTORS.INVALID_CENTROID', 'a centroid needs a Float32Array sum of finite numbers, an embeddingModel, a whole memoryCount and a finite similaritySum');
  }
}

/** The members a save records, as entries; each needs a non-empty id, a version from 1 and a finite share. */
export function checkCentroidMembers(members: ReadonlyMap<string, CentroidMember>): Array<[string, CentroidMember]> {
  const entries = members instanceof Map ? [...members] : null;
  const valid = entries?.every(([id, member]) => typeof id === 'string' && id.length > 0 && Number.isInteger(member?.version) && member.version >= 1 && Number.isFinite(member.similarity));
  if (!entries || !valid) {
    throw new MemoryServiceError('VECTORS.INVALID_MEMBER', 'centroid members are a Map from non-empty memory ids to a whole version from 1 and a finite similarity');
  }
  return entries.map(([id, { version, similarity }]) => [id, { version, similarity }]);
}

/** What a replace writes, checked as save checks it; members without a centroid would count in nothing. */
export function checkReplacement(centroid: Centroid | null, members: ReadonlyMap<string, CentroidMember>): Array<[string, CentroidMember]> {
  if (centroid) checkCentroid(centroid);
  const entries = checkCentroidMembers(members);
  if (!centroid && entries.length > 0) throw new MemoryServiceError('VECTORS.INVALID_MEMBER', 'a replace without a centroid cannot record members');
  return entries;
}

/** A conditional save that found another revision than it was given: read again and fold again. */
export function centroidChanged(scope: { tenantId: string; endUserId: string }, expected: string | null): MemoryServiceError {
  return new MemoryServiceError('VECTORS.CENTROID_CHANGED', `the centroid of ${scope.tenantId}/${scope.endUserId} changed since revision ${expected ?? '(none)'} was read`, { retriable: true });
}
