import { createHash } from 'node:crypto';
import { pipeline, Transform, type Readable } from 'node:stream';
import { AvroCodec, blobKeyOf, createJobIdClock, imageBlobKeys, userKey, type IngestRequested } from '@memory/contracts';
import { inspectImage, makePreview } from '@memory/image-analysis';
import type { BlobInfo, BlobStore, EventLog, JobStore } from '@memory/ports';
import { applyJobStatus } from '@memory/stage-job-tracker';
import { EVENTS } from '@memory/contracts';
import { MemoryServiceError, RequestError, type Logger } from '@memory/platform';
import { sanitiseFileName, type IncomingPdf } from './upload.js';
import type { ImageIngestRequest, TextIngestRequest } from './validation.js';

export interface IngestionDeps {
  log: EventLog;
  codec: AvroCodec;
  jobs: JobStore;
  logger: Logger;
  /** Where images and PDFs go before their event is published (claim check); required for those endpoints. */
  blobs?: BlobStore;
  nextJobId?: ReturnType<typeof createJobIdClock>;
}


/**
 * The ingestion use case: build the event, append it durably, and only then acknowledge. The job record is
 * written Accepted at once so GET /v1/jobs finds it; the job tracker would create it from the event anyway.
 */
export function createIngestion(deps: IngestionDeps) {
  const nextJobId = deps.nextJobId ?? createJobIdClock();

  const accept = async (event: IngestRequested) => {
    const value = await deps.codec.encode('ingestRequested', event);
    await deps.log.append(EVENTS.ingestRequested.topic, [{ key: userKey(event.tenantId, event.endUserId), value }]);
    const status = { jobId: event.jobId, tenantId: event.tenantId, endUserId: event.endUserId, state: 'Accepted' as const, stage: 'edge', partIndex: null, partCount: null, memoryId: null, errorCode: null, reason: null };
    await deps.jobs.update(event.tenantId, event.jobId, (current) => applyJobStatus(current, status, event.acceptedAt)).catch((error: unknown) => {
      // The event is durable; the job tracker will still record the job. Not a reason to fail the request.
      deps.logger.warn('could not record accepted job', { jobId: event.jobId, error: String(error) });
    });
    return { status: 'Accepted' as const, jobId: event.jobId };
  };

  const blobStore = () => {
    if (!deps.blobs) throw new Error('this edge was started without a blob store');
    return deps.blobs;
  };

  return {
    /**
     * Validates the image (decodes, allowed format, size and pixel limits), stores the original and its preview,
     * and only then publishes the event: an accepted job's bytes are always there for the enricher.
     */
    async acceptImage(tenantId: string, endUserId: string, timeZone: string | null, request: ImageIngestRequest) {
      const image = await inspectImage(request.image);
      const preview = await makePreview(request.image);
      const { jobId, acceptedAt } = nextJobId('image', endUserId);
      const keys = imageBlobKeys(tenantId, endUserId, jobId);
      const blobs = blobStore();
      const original = await blobs.put(keys.original, request.image, image.contentType);
      await blobs.put(keys.preview, preview.bytes, preview.contentType);
      const ack = await accept({
        jobId, tenantId, endUserId, kind: 'image', acceptedAt,
        content: null, sourceTimestamp: null, timeZone, userContext: request.userContext,
        blob: { key: original.key, contentType: original.contentType, size: original.size, fileName: null },
      });
      return { ...ack, previewKey: keys.preview };
    },
    /**
     * Streams the PDF into the blob store (nothing held in memory) under a new job id, hashing its bytes on the way
     * when asked (an idempotent upload's fingerprint); publishDocument then accepts it. A file over the limit or not a
     * PDF leaves nothing stored: the blob store keeps no partial object.
     */
    async storeDocument(tenantId: string, endUserId: string, upload: IncomingPdf, maxBytes: number, options: { hash: boolean }): Promise<StoredDocument> {
      const { jobId, acceptedAt } = nextJobId('document', endUserId);
      const key = blobKeyOf(tenantId, endUserId, jobId, sanitiseFileName(upload.fileName));
      const hashed = options.hash ? sha256While(upload.stream) : null;
      try {
        const blob = await blobStore().put(key, hashed?.stream ?? upload.stream, 'application/pdf', { maxBytes });
        return { tenantId, endUserId, jobId, acceptedAt, fileName: upload.fileName, blob, sha256: hashed?.digest() ?? null };
      } catch (error) {
        throw uploadError(error, maxBytes);
      }
    },
    /** Publishes the event of a stored PDF: the job is accepted. */
    async publishDocument(document: StoredDocument, timeZone: string | null) {
      const { tenantId, endUserId, jobId, acceptedAt, blob } = document;
      const ack = await accept({
        jobId, tenantId, endUserId, kind: 'document', acceptedAt,
        content: null, sourceTimestamp: null, timeZone, userContext: null,
        blob: { key: blob.key, contentType: blob.contentType, size: blob.size, fileName: document.fileName },
      });
      return { ...ack, storagePath: blob.key };
    },
    /** Removes a stored PDF that will not be published (its request was a replay, or was refused). */
    discardDocument(document: StoredDocument): Promise<void> {
      return blobStore().delete(document.blob.key);
    },
    acceptText(tenantId: string, endUserId: string, timeZone: string | null, request: TextIngestRequest) {
      const { jobId, acceptedAt } = nextJobId('text', endUserId);
      return accept({
        jobId, tenantId, endUserId, kind: 'text', acceptedAt,
        content: request.content, sourceTimestamp: request.sourceTimestamp, timeZone, userContext: request.userContext, blob: null,
      });
    },
  };
}

export type Ingestion = ReturnType<typeof createIngestion>;

/** A PDF in the blob store whose event is not published yet. */
export interface StoredDocument {
  tenantId: string;
  endUserId: string;
  jobId: string;
  acceptedAt: number;
  fileName: string;
  blob: BlobInfo;
  /** SHA-256 of the file's bytes (hex), when it was asked for. */
  sha256: string | null;
}

/** The stream passed through, hashed on the way; a failure of the source reaches the returned stream's reader. */
function sha256While(source: Readable): { stream: Readable; digest: () => string } {
  const hash = createHash('sha256');
  const through = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  pipeline(source, through, () => {});
  return { stream: through, digest: () => hash.digest('hex') };
}

/** What the client should hear when storing an upload failed: its own fault (413, 415) or ours (as it was). */
function uploadError(error: unknown, maxBytes: number): unknown {
  const cause = (error as { cause?: unknown }).cause;
  if (error instanceof RequestError) return error;
  if (cause instanceof RequestError) return cause;
  if (error instanceof MemoryServiceError && error.code === 'BLOB.TOO_LARGE') {
    return new RequestError(413, 'DOCUMENT.TOO_LARGE', `the PDF is larger than ${maxBytes} bytes; nothing was stored`);
  }
  return error;
}
