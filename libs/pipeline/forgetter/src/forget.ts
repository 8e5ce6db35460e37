import {
  blobPrefixOf, contentKeyId, isDocumentJob, isUpdateJob, jobIdOfMemory, memoryIdPrefixOf, type ForgetReceipt, type ForgetRequested, type Removal,
} from '@memory/contracts';
import {
  erasureCovers, versionsOf, type BlobStore, type CentroidStore, type IdempotencyStore, type JobStore, type Keyring, type Scope, type VectorStore,
} from '@memory/ports';
import { recomputeCentroid } from '@memory/stage-centroid-calibrator';
import { removeMemories, type MemoryStores } from './remove-memories.js';
import type { WebhookRecords } from './webhook-records.js';

export interface ForgetDeps extends MemoryStores {
  centroids: CentroidStore;
  blobs: BlobStore;
  jobs: JobStore;
  keys: Pick<Keyring, 'forget' | 'erase' | 'scrub'>;
  /** The end user's idempotency records, when the process keeps them. */
  idempotency?: Pick<IdempotencyStore, 'forgetUser' | 'forgetJobs'>;
  /** Webhook deliveries about the end user's jobs (ids, no content) and the dispatcher's job records, when the process keeps them. */
  webhooks?: WebhookRecords;
}

const LOG_NOTE = (keys: number) =>
  `the log keeps what was forgotten only as ciphertext sealed with ${keys} destroyed data key(s): unreadable by anyone, and skipped by every replay`;

/**
 * Carries out one forget request on every store: memories, visual descriptors, graph (with orphaned entities),
 * centroid (recomputed without them), blobs (originals, previews, PDFs of jobs with nothing left), job records and
 * idempotency records (an end user's; a job's with nothing left; those of the updates of forgotten memories). The edge
 * destroyed the data keys before publishing the request; they are destroyed again here (a no-op, unless this is a
 * replay into a store that never saw the first destruction), with those of the updates of forgotten memories, which
 * only the forgetter can read from the memories' histories. Idempotent: a second run removes nothing and its
 * receipt says so.
 */
export async function forget(request: ForgetRequested, deps: ForgetDeps): Promise<ForgetReceipt> {
  const scope: Scope = { tenantId: request.tenantId, endUserId: request.endUserId };
  if (request.target === 'user') return eraseUser(scope, request, deps);

  const targetJob = request.target === 'job' ? request.targetJobId! : jobIdOfMemory(request.memoryId!);
  const memoryIds = request.target === 'memory'
    ? [request.memoryId!]
    : (await deps.vectors.ids(scope)).filter((id) => id.startsWith(memoryIdPrefixOf(request.targetJobId!)));
  const keyIds = request.target === 'job' ? [request.targetJobId!] : [contentKeyId({ jobId: targetJob ?? '', memoryId: request.memoryId! })];
  // Before the memories go: their histories are the only place that names the updates that wrote them, and a retry
  // of a forget interrupted after removing them would find nothing. Those jobs go with the memory, as its ingestion
  // does: their keys first (they seal the updates' status reports, which name the memory, so no replay brings their
  // records back), then their records and Idempotency-Key records.
  const updateJobs = await updateJobsOf(scope, memoryIds, deps.vectors);
  let keysDestroyed = request.keysDestroyed + (await deps.keys.forget(scope, [...keyIds, ...updateJobs]));
  const { idempotency } = deps;
  let jobRecords = updateJobs.length > 0 ? await deps.jobs.forget(scope.tenantId, updateJobs) : 0;
  let idempotencyRecords = 0;
  if (idempotency) idempotencyRecords += await forgetIdempotencyRecords(scope, updateJobs, idempotency);
  let deliveries = deps.webhooks ? await deps.webhooks.forgetJobs(scope, updateJobs) : 0;
  const { memories, removed } = await removeMemories(scope, memoryIds, deps);
  const centroidMembers = (await mayStillCount(scope, request, memoryIds, memories, deps)) ? await recomputeCentroid(scope, deps) : null;

  // A job with no memory left goes whole: its record and its files. A document keeps its PDF while pages remain;
  // once a finished document's last page is forgotten, its own key goes too (it seals the request: the file's name,
  // its metadata), as forgetting the whole job would have done. Not while pages may still be in the pipeline: the
  // job's key covers theirs.
  let blobs = 0;
  if (targetJob) {
    const remaining = (await deps.vectors.ids(scope)).some((id) => id.startsWith(memoryIdPrefixOf(targetJob)));
    const state = (await deps.jobs.get(scope.tenantId, targetJob))?.state;
    // A document's pages are sealed apart: one page forgotten while other pages may still come (its job not
    // Completed: running, or Failed with pages behind the failed one still flowing) leaves the job, whose record and
    // PDF those pages need; a Failed job's record would otherwise come back from their reports, Processing. No record
    // is a retry of a forget that already took the job (or one never recorded): it is taken whole again, which is
    // idempotent. (Forgetting a whole job, or a text or image memory, destroys the job's own key: nothing more comes.)
    const pagesMayCome = request.target === 'memory' && isDocumentJob(targetJob) && state !== undefined && state !== 'Completed';
    if (!remaining && !pagesMayCome) {
      const finished = state === 'Completed';
      // The key first: it is the tombstone the job tracker and the webhook dispatcher check after their writes, so
      // one of theirs landing after the removals below is taken back by them.
      if (finished && !keyIds.includes(targetJob)) keysDestroyed += await deps.keys.forget(scope, [targetJob]);
      blobs = await deps.blobs.deletePrefix(blobPrefixOf(scope.tenantId, scope.endUserId, targetJob));
      jobRecords += await deps.jobs.forget(scope.tenantId, [targetJob]);
      if (idempotency) idempotencyRecords += await forgetIdempotencyRecords(scope, [targetJob], idempotency);
      if (deps.webhooks) deliveries += await deps.webhooks.forgetJobs(scope, [targetJob]);
    }
  }
  return receipt(memories, [
    ...removed,
    ...(centroidMembers === null ? [] : [{ store: 'centroid', what: 'members after recomputation without the forgotten memories', count: centroidMembers }]),
    { store: 'blobs', what: 'objects (originals, previews, PDFs)', count: blobs },
    { store: 'jobs', what: 'job records', count: jobRecords },
    ...(idempotency ? [{ store: 'idempotency', what: 'idempotency records', count: idempotencyRecords }] : []),
    ...(deps.webhooks ? [{ store: 'webhooks', what: 'webhook deliveries about their jobs', count: deliveries }] : []),
    { store: 'keys', what: 'data keys destroyed', count: keysDestroyed },
  ], keysDestroyed);
}

/**
 * Whether the end user's centroid may still count what this request forgets, so it has to be recomputed: a retry
 * (in-process, or a redelivery after a crash) removes nothing, yet its first attempt may have failed after the
 * deletion and before the recompute saved.
 */
async function mayStillCount(scope: Scope, request: ForgetRequested, memoryIds: string[], removedNow: number, deps: ForgetDeps): Promise<boolean> {
  if (removedNow > 0) return true;
  // The cheapest check that is still correct: a member entry of a target (an O(targets) read) when the request names
  // its memory; a job's memories can no longer be named once deleted, so then any centroid may count them; and a
  // centroid absent while memories remain (a reset of the version before replace(), stopped before its save) is
  // rebuilt rather than left to a fold from empty.
  const centroid = await deps.centroids.get(scope);
  if (!centroid) return (await deps.vectors.count(scope)) > 0;
  if (request.target === 'job') return true;
  return (await deps.centroids.members(scope, memoryIds)).size > 0;
}

/** The update (PATCH) jobs that wrote a version of these memories, as their histories name them. */
async function updateJobsOf(scope: Scope, memoryIds: string[], vectors: VectorStore): Promise<string[]> {
  const memories = await vectors.getWithoutVectors(scope, memoryIds);
  return [...new Set(memories.flatMap((memory) => versionsOf(memory).map((version) => version.jobId).filter(isUpdateJob)))];
}

/**
 * Removes the Idempotency-Key records of requests that created these jobs: the request's fingerprint and the job's
 * id go with the job, and the same request with the same key is then a new one. Returns how many.
 */
async function forgetIdempotencyRecords(scope: Scope, jobIds: string[], idempotency: Pick<IdempotencyStore, 'forgetJobs'>): Promise<number> {
  return jobIds.length === 0 ? 0 : idempotency.forgetJobs(scope, jobIds);
}

/** Everything of one end user accepted before the erasure; what they send afterwards is new and stays. */
async function eraseUser(scope: Scope, request: ForgetRequested, deps: ForgetDeps): Promise<ForgetReceipt> {
  const before = request.acceptedAt;
  const covered = (id: string) => erasureCovers(id, before);
  const keysDestroyed = request.keysDestroyed + (await deps.keys.erase(scope, before));
  const [ids, visualIds] = await Promise.all([deps.vectors.ids(scope), deps.visualVectors.ids(scope)]);
  const forgotten = [...new Set([...ids, ...visualIds])].filter(covered);
  const kept = ids.filter((id) => !covered(id));

  let memories: number;
  let removed: Removal[];
  if (kept.length === 0) {
    // Nothing newer to keep: the whole graph of the user goes at once, orphans and all.
    const vectors = await inSlices(forgotten, (ids) => deps.vectors.delete(scope, ids));
    const visual = await inSlices(forgotten, (ids) => deps.visualVectors.delete(scope, ids));
    const graph = await deps.graph.erase(scope);
    await deps.centroids.reset(scope);
    memories = vectors;
    removed = [
      { store: 'vectors', what: 'memories, with their vectors and lexical index entries', count: vectors },
      { store: 'visual-vectors', what: 'image descriptors', count: visual },
      { store: 'graph', what: 'nodes (memories, entities, documents, the user)', count: graph.nodes },
      { store: 'graph', what: 'edges', count: graph.edges },
      { store: 'centroid', what: 'members after recomputation without the forgotten memories', count: 0 },
    ];
  } else {
    ({ memories, removed } = await removeMemories(scope, forgotten, deps));
    removed.push({ store: 'centroid', what: 'members after recomputation without the forgotten memories', count: await recomputeCentroid(scope, deps) });
  }
  const blobs = await deps.blobs.deletePrefix(blobPrefixOf(scope.tenantId, scope.endUserId), (key) => covered(jobOfBlobKey(key)));
  const jobRecords = await deps.jobs.erase(scope, before);
  const idempotency = deps.idempotency ? await deps.idempotency.forgetUser(scope) : null;
  const deliveries = deps.webhooks ? await deps.webhooks.forgetUser(scope, before) : null;
  return receipt(memories, [
    ...removed,
    { store: 'blobs', what: 'objects (originals, previews, PDFs)', count: blobs },
    { store: 'jobs', what: 'job records', count: jobRecords },
    ...(idempotency === null ? [] : [{ store: 'idempotency', what: 'idempotency records', count: idempotency }]),
    ...(deliveries === null ? [] : [{ store: 'webhooks', what: 'webhook deliveries about their jobs', count: deliveries }]),
    { store: 'keys', what: 'data keys destroyed', count: keysDestroyed },
  ], keysDestroyed);
}

/** The job a blob belongs to: the third segment of `<tenant>/<endUser>/<jobId>/<name>` (blobKeyOf), decoded. */
export function jobOfBlobKey(key: string): string {
  return decodeURIComponent(key.split('/')[2] ?? '');
}

const SLICE = 500;

/** A large erasure in slices, each its own write, so other users' stages get their turn in between. */
export async function inSlices(ids: string[], remove: (slice: string[]) => Promise<number>): Promise<number> {
  let removed = 0;
  for (let i = 0; i < ids.length; i += SLICE) removed += await remove(ids.slice(i, i + SLICE));
  return removed;
}

export function receipt(memories: number, removed: Removal[], keysDestroyed: number): ForgetReceipt {
  return { memories, removed, log: LOG_NOTE(keysDestroyed) };
}
