import { createHash } from 'node:crypto';
import { pipeline, Transform, type Readable } from 'node:stream';
import { blobKeyOf, imageBlobKeys, type IngestRequested } from '@memory/contracts';
import { inspectImage, makePreview } from '@memory/image-analysis';
import type { BlobInfo, BlobStore, MemoryMetadata } from '@memory/ports';
import { acceptedNothing, acceptJob, type AcceptJobDeps } from './accept-job.js';
import { jobToAccept, type IssueJobId } from './job-ids.js';
import { MemoryServiceError, RequestError } from '@memory/platform';
import { sanitiseFileName, type IncomingPdf } from './upload.js';
import type { ImageIngestRequest, TextIngestRequest } from './validation.js';

export interface IngestionDeps extends AcceptJobDeps {
  /** Where images and PDFs go before their event is published (claim check); required for those endpoints. */
  blobs?: BlobStore;
  issueJobId: IssueJobId;
}


/** The ingestion use case: store the bytes (claim check), build the event, and accept it as a job (acceptJob). */
export function createIngestion(deps: IngestionDeps) {
  const accept = (event: Omit<IngestRequested, 'memoryId' | 'cause'>) => acceptJob(deps, 'ingestRequested', { ...event, memoryId: null, cause: 'ingest' });

  const blobStore = () => {
    if (!deps.blobs) throw new Error('this edge was started without a blob store');
    return deps.blobs;
  };

  /** The job a request accepts: the one named with its Idempotency-Key's claim, or else a new one (jobToAccept). */
  const jobOf = (kind: 'text' | 'image' | 'document', tenantId: string, endUserId: string, given: string | undefined) => jobToAccept(deps.issueJobId, kind, { tenantId, endUserId }, given);

  return {
    /** A new job id, for a request that names its job before accepting it (an idempotent one). */
    newJobId: async (kind: 'text' | 'image', tenantId: string, endUserId: string) => (await deps.issueJobId(kind, { tenantId, endUserId })).jobId,
    /**
     * Validates the image (decodes, allowed format, size and pixel limits), stores the original and its preview,
     * and only then publishes the event: an accepted job's bytes are always there for the enricher.
     */
    async acceptImage(tenantId: string, endUserId: string, timeZone: string | null, request: ImageIngestRequest, givenJobId?: string) {
      const image = await inspectImage(request.image);
      const preview = await makePreview(request.image);
      const { jobId, acceptedAt } = await jobOf('image', tenantId, endUserId, givenJobId);
      const keys = imageBlobKeys(tenantId, endUserId, jobId);
      const blobs = blobStore();
      const original = await blobs.put(keys.original, request.image, image.contentType);
      await blobs.put(keys.preview, preview.bytes, preview.contentType);
      try {
        const ack = await accept({
          jobId, tenantId, endUserId, kind: 'image', acceptedAt,
          content: null, sourceTimestamp: null, timeZone, userContext: request.userContext,
          blob: { key: original.key, contentType: original.contentType, size: original.size, fileName: null }, metadata: request.metadata,
        });
        return { ...ack, previewKey: keys.preview };
      } catch (error) {
        // The end user was erased meanwhile (its forgetting may already have swept their files), or the client left:
        // the image and its preview would be kept for a job that does not exist.
        if (acceptedNothing(error)) {
          await Promise.all([keys.original, keys.preview].map((key) => blobs.delete(key))).catch((cause: unknown) => deps.logger.warn('could not delete the files of an image not accepted', { jobId, error: String(cause) }));
        }
        throw error;
      }
    },
    /**
     * Streams the PDF into the blob store (nothing held in memory) under a new job id, hashing its bytes on the way
     * when asked (an idempotent upload's fingerprint); publishDocument then accepts it. A file over the limit or not a
     * PDF leaves nothing stored: the blob store keeps no partial object. Metadata sent after the file is known only
     * once the file is stored: when it is refused, the stored file is deleted again.
     */
    async storeDocument(tenantId: string, endUserId: string, upload: IncomingPdf, maxBytes: number, options: { hash: boolean }): Promise<StoredDocument> {
      const { jobId, acceptedAt } = await deps.issueJobId('document', { tenantId, endUserId });
      const key = blobKeyOf(tenantId, endUserId, jobId, sanitiseFileName(upload.fileName));
      const hashed = options.hash ? sha256While(upload.stream) : null;
      let blob: BlobInfo;
      try {
        blob = await blobStore().put(key, hashed?.stream ?? upload.stream, 'application/pdf', { maxBytes });
      } catch (error) {
        throw uploadError(error, maxBytes);
      }
      let metadata;
      try {
        metadata = await upload.metadata;
      } catch (error) {
        await blobStore().delete(blob.key).catch((cause: unknown) => deps.logger.warn('could not delete a refused upload', { key: blob.key, error: String(cause) }));
        throw error;
      }
      return { tenantId, endUserId, jobId, acceptedAt, fileName: upload.fileName, blob, sha256: hashed?.digest() ?? null, metadata };
    },
    /**
     * Publishes the event of a stored PDF: the job is accepted. `givenJobId` names an earlier attempt's job of the same
     * upload (an Idempotency-Key taken over from an edge that died mid-request): that attempt stored the same bytes
     * under its own job and may have published them, so the job is published again with that file, and this attempt's
     * copy is removed once it is; if the earlier file is gone, this copy serves the earlier job.
     */
    async publishDocument(document: StoredDocument, timeZone: string | null, givenJobId?: string) {
      const { tenantId, endUserId } = document;
      const { jobId, acceptedAt } = givenJobId === undefined ? document : await jobOf('document', tenantId, endUserId, givenJobId);
      const earlierBlob = jobId === document.jobId ? null : await blobStore().head(blobKeyOf(tenantId, endUserId, jobId, sanitiseFileName(document.fileName)));
      const blob = earlierBlob ?? document.blob;
      const ack = await accept({
        jobId, tenantId, endUserId, kind: 'document', acceptedAt,
        content: null, sourceTimestamp: null, timeZone, userContext: null,
        blob: { key: blob.key, contentType: blob.contentType, size: blob.size, fileName: document.fileName }, metadata: document.metadata,
      });
      if (earlierBlob) {
        await blobStore().delete(document.blob.key).catch((error: unknown) => deps.logger.warn('could not delete the second copy of a retried upload', { key: document.blob.key, error: String(error) }));
      }
      return { ...ack, storagePath: blob.key };
    },
    /** Removes a stored PDF that will not be published (its request was a replay, or was refused). */
    discardDocument(document: StoredDocument): Promise<void> {
      return blobStore().delete(document.blob.key);
    },
    async acceptText(tenantId: string, endUserId: string, timeZone: string | null, request: TextIngestRequest, givenJobId?: string) {
      const { jobId, acceptedAt } = await jobOf('text', tenantId, endUserId, givenJobId);
      return accept({
        jobId, tenantId, endUserId, kind: 'text', acceptedAt,
        content: request.content, sourceTimestamp: request.sourceTimestamp, timeZone, userContext: request.userContext, blob: null, metadata: request.metadata,
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
  metadata: MemoryMetadata | null;
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
