import type { SourceKind } from './generated/events.js';

/** What a job does: ingest one of the source kinds, update (correct) a memory, or forget (delete) memories. */
export type JobKind = SourceKind | 'update' | 'forget';

const JOB_PREFIX: Record<JobKind, string> = { text: 'job', image: 'img_job', document: 'doc_job', update: 'upd_job', forget: 'del_job' };

/** A job id of any kind: its prefix, the millisecond it was accepted and (captured) the end user id. */
export const JOB_ID_PATTERN = new RegExp(`^(?:${Object.values(JOB_PREFIX).join('|')})_\\d{1,15}_(.+)$`);

/**
 * Job ids as the interface defines them: prefix, a millisecond timestamp and the end user id, joined by
 * underscores. The clock is made strictly increasing per process, so two requests in the same millisecond still
 * get different ids (the timestamp of the second is one millisecond later).
 */
export function createJobIdClock(now: () => number = Date.now) {
  let last = 0;
  return (kind: JobKind, endUserId: string): { jobId: string; acceptedAt: number } => {
    const acceptedAt = Math.max(now(), last + 1);
    last = acceptedAt;
    return { jobId: `${JOB_PREFIX[kind]}_${acceptedAt}_${endUserId}`, acceptedAt };
  };
}

/** A memory's id is derived from its job and part, so redelivery and replay rewrite the same memory. */
export function memoryIdOf(jobId: string, partIndex: number): string {
  return `mem_${jobId}_${partIndex}`;
}

/** Whether a job id names a PDF's job, whose pages are memories of their own. */
export function isDocumentJob(jobId: string): boolean {
  return jobId.startsWith(`${JOB_PREFIX.document}_`);
}

/** Whether a job id names the ingestion of one text or one image, which makes one memory: its part 0. */
export function isSingleMemoryJob(jobId: string): boolean {
  return JOB_ID_PATTERN.test(jobId) && (jobId.startsWith(`${JOB_PREFIX.text}_`) || jobId.startsWith(`${JOB_PREFIX.image}_`));
}

/** Whether a job id names an update (PATCH) of a memory, which makes no memory of its own. */
export function isUpdateJob(jobId: string): boolean {
  return jobId.startsWith(`${JOB_PREFIX.update}_`);
}

/** Whether `id` is a job id of this end user (`<prefix>_<ms>_<endUserId>`), of any kind. */
export function isJobIdOf(id: string, endUserId: string): boolean {
  const match = JOB_ID_PATTERN.exec(id);
  return match !== null && match[1] === endUserId;
}

/** The blob key prefix of everything one job stored, or (without a job) of everything one end user stored. */
export function blobPrefixOf(tenantId: string, endUserId: string, jobId?: string): string {
  return `${[tenantId, endUserId, ...(jobId === undefined ? [] : [jobId])].map(keySegment).join('/')}/`;
}

/** The job a memory id was derived from (memoryIdOf reversed), or null for an id of another shape. */
export function jobIdOfMemory(memoryId: string): string | null {
  const match = /^mem_(.+)_\d+$/.exec(memoryId);
  return match ? match[1]! : null;
}

/** The prefix of every memory id derived from a job: how a job's memories are found among a user's. */
export function memoryIdPrefixOf(jobId: string): string {
  return `mem_${jobId}_`;
}

/**
 * When the job behind a job id or memory id was accepted (the millisecond part of `job_<ms>_<user>`,
 * `mem_<jobId>_<part>`), or null for an id of another shape. An erasure forgets everything accepted before it.
 */
export function acceptedAtOf(id: string): number | null {
  const match = /^(?:mem_)?(?:job|img_job|doc_job|upd_job|del_job)_(\d{1,15})_/.exec(id);
  return match ? Number(match[1]) : null;
}

/** The record key of every event about an end user: keeps one user's events in one partition, in order. */
export function userKey(tenantId: string, endUserId: string): string {
  return `${tenantId}/${endUserId}`;
}

/** The tenant and end user a record's key names (userKey read back; an end user id never holds "/"), or null. */
export function ownerOfUserKey(key: string): { tenantId: string; endUserId: string } | null {
  const split = key.lastIndexOf('/');
  return split > 0 && split < key.length - 1 ? { tenantId: key.slice(0, split), endUserId: key.slice(split + 1) } : null;
}

/**
 * The blob store key of one of a job's files (the original upload, an image preview). Tenant and end user come
 * first, so a store can apply per-tenant rules by prefix; each part is percent-encoded, and "." and ".." are
 * encoded too, so an id can never read as a path step.
 */
export function blobKeyOf(tenantId: string, endUserId: string, jobId: string, name: string): string {
  return [tenantId, endUserId, jobId, name].map(keySegment).join('/');
}

function keySegment(part: string): string {
  const encoded = encodeURIComponent(part);
  return encoded === '.' || encoded === '..' ? encoded.replace(/\./g, '%2E') : encoded;
}

/** The blob keys of an image job: the original as sent, and the bounded WebP preview that previewUrl serves. */
export function imageBlobKeys(tenantId: string, endUserId: string, jobId: string) {
  return { original: blobKeyOf(tenantId, endUserId, jobId, 'original'), preview: blobKeyOf(tenantId, endUserId, jobId, 'preview.webp') };
}

/** The record header that names a record's job in clear (ids only): what a stage knows of a record it cannot open. */
export const JOB_ID_HEADER = 'job-id';

/**
 * The record header carrying the id of the HTTP request that started a record's job (X-Request-Id), copied by every
 * stage onto what it appends, so one id finds a job's log lines in every process.
 */
export const REQUEST_ID_RECORD_HEADER = 'request-id';

/** The headers of an event's record: its job id, when it has one, and the request id it descends from. */
export function jobHeaders(value: unknown, requestId?: string): Record<string, string> | undefined {
  const jobId = (value as { jobId?: unknown }).jobId;
  const headers: Record<string, string> = {};
  if (typeof jobId === 'string') headers[JOB_ID_HEADER] = jobId;
  if (requestId !== undefined) headers[REQUEST_ID_RECORD_HEADER] = requestId;
  return Object.keys(headers).length ? headers : undefined;
}
