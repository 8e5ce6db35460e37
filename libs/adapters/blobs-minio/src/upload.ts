import type { Readable } from 'node:stream';
import type { Client } from 'minio';
import { MemoryServiceError } from '@memory/platform';
import { mapS3Error } from './error-map.js';
import { tooLarge } from '@memory/ports';

// S3 numbers parts from 1 to 10,000.
const MAX_PARTS = 10_000;

export interface UploadTarget {
  client: Client;
  bucket: string;
  objectName: string;
  /** The caller's key, for messages. */
  key: string;
  contentType: string;
  partSize: number;
  maxBytes: number;
}

/**
 * Streams `body` into one object holding at most one part in memory, counting bytes as they arrive so an upload
 * over maxBytes stops at once. A body that ends within the first part goes up as one PUT; a longer one as a
 * multipart upload, which S3 makes visible only on completion, so a failed upload (too large, source error,
 * network) is aborted and never replaces what the key held. The minio client's own putObject is not used for
 * streams: with an unknown size it buffers the whole body (up to hundreds of MB) and resumes any unfinished
 * upload of the same key, which mixes two concurrent writers' parts.
 */
export async function uploadStream(target: UploadTarget, body: Readable): Promise<number> {
  const { client, bucket, objectName, key, contentType, partSize, maxBytes } = target;
  const parts: { part: number; etag: string }[] = [];
  let uploadId: string | undefined;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let total = 0;

  // Errors of the client are mapped here, so whatever else reaches the loop's catch came from the caller's stream.
  const sendPart = async (payload: Buffer) => {
    if (parts.length >= MAX_PARTS) throw tooLarge(key, MAX_PARTS * partSize);
    try {
      uploadId ??= await client.initiateNewMultipartUpload(bucket, objectName, { 'Content-Type': contentType });
      const part = parts.length + 1;
      const { etag } = await client.uploadPart({ bucketName: bucket, objectName, uploadID: uploadId, partNumber: part, headers: {} }, payload);
      parts.push({ part, etag });
    } catch (error) {
      throw mapS3Error(error, `uploading blob ${key}`);
    }
  };

  try {
    try {
      for await (const chunk of body) {
        const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array | string);
        total += buffer.length;
        if (total > maxBytes) throw tooLarge(key, maxBytes);
        pending.push(buffer);
        pendingBytes += buffer.length;
        while (pendingBytes >= partSize) {
          const joined = Buffer.concat(pending);
          pending = [joined.subarray(partSize)];
          pendingBytes = joined.length - partSize;
          await sendPart(joined.subarray(0, partSize));
        }
      }
    } catch (error) {
      throw error instanceof MemoryServiceError ? error : sourceFailed(error, key);
    }
    const rest = Buffer.concat(pending);
    if (uploadId === undefined) {
      await client.putObject(bucket, objectName, rest, rest.length, { 'Content-Type': contentType });
      return total;
    }
    if (rest.length > 0) await sendPart(rest);
    await client.completeMultipartUpload(bucket, objectName, uploadId, parts);
    return total;
  } catch (error) {
    if (uploadId !== undefined) {
      // Best effort: an upload left behind holds storage until a lifecycle rule for incomplete uploads clears it.
      await client.abortMultipartUpload(bucket, objectName, uploadId).catch(() => undefined);
    }
    throw mapS3Error(error, `uploading blob ${key}`);
  }
}

function sourceFailed(error: unknown, key: string): MemoryServiceError {
  const message = error instanceof Error ? error.message : String(error);
  return new MemoryServiceError('BLOB.SOURCE_FAILED', `reading the body of blob ${key} failed: ${message}`, { cause: error });
}
