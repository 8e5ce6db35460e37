import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { MemoryServiceError } from '@memory/platform';
import type { EventName } from './catalog.js';
import { isDocumentJob, isSingleMemoryJob, jobIdOfMemory, memoryIdOf, ownerOfUserKey } from './ids.js';

/**
 * Where the codec gets data keys. Every event that carries an end user's content is sealed with the key of its
 * subject (a job, or one part of a multi-part job), so forgetting that subject is destroying its key: the records
 * stay in the log, in every copy of it, and can no longer be read by anyone.
 */
export interface ContentKeys {
  /** The subject's key, created on first use; rejects with KEY.FORGOTTEN when the subject was forgotten. */
  keyFor(tenantId: string, endUserId: string, keyId: string): Promise<Buffer>;
  /** The subject's key, or null when it was forgotten (or never existed); never creates one. */
  existingKey(tenantId: string, endUserId: string, keyId: string): Promise<Buffer | null>;
}

/**
 * The key a memory's content is sealed with: a document's pages each have their own, so one page can be forgotten
 * alone; a text or image job makes one memory, sealed with the job's key. The job is read from the memory id, so
 * every version of a memory (an update travels under an upd_job_ id) is sealed with the key of the job that made it,
 * and forgetting the memory forgets them all.
 */
export function contentKeyId(subject: { jobId: string; memoryId: string }): string {
  const madeBy = jobIdOfMemory(subject.memoryId) ?? subject.jobId;
  return isDocumentJob(madeBy) ? subject.memoryId : madeBy;
}

/**
 * The memory whose content a content key seals (contentKeyId reversed): a page's own id, or the one memory of a text
 * or image job; null for a key that seals no memory (a document's job, an update's, the centroid's).
 */
export function memoryOfContentKey(keyId: string): string | null {
  if (jobIdOfMemory(keyId) !== null) return keyId;
  return isSingleMemoryJob(keyId) ? memoryIdOf(keyId, 0) : null;
}

/** The key of a request's content: the memory's when it rewrites one (an update), else its own job's. */
function requestKeyId(v: { jobId: string; memoryId: string | null }): string {
  return v.memoryId === null ? v.jobId : contentKeyId({ jobId: v.jobId, memoryId: v.memoryId });
}

/** The key id of the per-user aggregate (the centroid), destroyed when the end user is erased. */
export const USER_AGGREGATE_KEY_ID = 'centroid';

type Subject = { tenantId: string; endUserId: string };

/** Whose key seals an event: its owner and the key's id; null for one that travels in clear. */
export type SealedBy = (value: never) => (Subject & { keyId: string }) | null;

/** An event that names its owner, sealed with the key `keyIdOf` picks. */
const owned = <V extends Subject>(keyIdOf: (value: V) => string) => (value: V) => ({ tenantId: value.tenantId, endUserId: value.endUserId, keyId: keyIdOf(value) });

/**
 * The events that carry content, and which subject's key seals each. Events of ids only travel in clear. A dead
 * letter carries its record and its error, which can name content (a file's name in a blob's key): it is sealed with
 * its job's key, so forgetting the job forgets it; one that names no job (its record named none) stays in clear.
 */
export const SEALED_EVENTS: Partial<Record<EventName, SealedBy>> = {
  ingestRequested: owned((v: Subject & { jobId: string; memoryId: string | null }) => requestKeyId(v)),
  resolved: owned((v: Subject & { jobId: string; memoryId: string | null }) => requestKeyId(v)),
  enriched: owned((v: Subject & { jobId: string; memoryId: string }) => contentKeyId(v)),
  committed: owned((v: Subject & { jobId: string; memoryId: string }) => contentKeyId(v)),
  jobStatus: owned((v: Subject & { jobId: string }) => v.jobId),
  centroidUpdated: owned(() => USER_AGGREGATE_KEY_ID),
  deadLetter: (v: { key: string; jobId: string | null }) => {
    const owner = ownerOfUserKey(v.key);
    return v.jobId === null || owner === null ? null : { ...owner, keyId: v.jobId };
  },
};

export const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A fresh random data key. */
export function newDataKey(): Buffer {
  return randomBytes(KEY_BYTES);
}

export function keyForgotten(tenantId: string, endUserId: string, keyId: string): MemoryServiceError {
  return new MemoryServiceError('KEY.FORGOTTEN', `the content of ${keyId} (${tenantId}/${endUserId}) was forgotten: its key is destroyed`, {
    details: { tenantId, endUserId, keyId },
  });
}

/**
 * The sealed body: who it belongs to in clear (tenant, end user, key id: ids only, so a reader knows which key to
 * ask for), then AES-256-GCM of the Avro body. The subject is authenticated, so a sealed body cannot be passed off as
 * another's; the schema id is not, so export-to-kafka can rewrite it for another registry.
 */
export function sealBody(subject: Subject, keyId: string, key: Buffer, body: Buffer): Buffer {
  const ref = Buffer.from([subject.tenantId, subject.endUserId, keyId].join('\u0000'), 'utf8');
  const refLength = Buffer.allocUnsafe(2);
  refLength.writeUInt16BE(ref.length, 0);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.concat([refLength, ref]));
  const sealed = Buffer.concat([cipher.update(body), cipher.final()]);
  return Buffer.concat([refLength, ref, iv, cipher.getAuthTag(), sealed]);
}

/** The subject a sealed body names, and where its ciphertext starts. */
export function sealedSubject(sealed: Buffer): { tenantId: string; endUserId: string; keyId: string } {
  const refLength = sealed.readUInt16BE(0);
  const [tenantId = '', endUserId = '', keyId = ''] = sealed.subarray(2, 2 + refLength).toString('utf8').split('\u0000');
  return { tenantId, endUserId, keyId };
}

export function openBody(sealed: Buffer, key: Buffer): Buffer {
  const refLength = sealed.readUInt16BE(0);
  const ivStart = 2 + refLength;
  const iv = sealed.subarray(ivStart, ivStart + IV_BYTES);
  const tag = sealed.subarray(ivStart + IV_BYTES, ivStart + IV_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(sealed.subarray(0, ivStart));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(sealed.subarray(ivStart + IV_BYTES + TAG_BYTES)), decipher.final()]);
  } catch (cause) {
    throw new MemoryServiceError('CONTRACT.BAD_SEAL', 'a sealed record does not open with its key (corrupt, or not the subject it names)', { cause });
  }
}
