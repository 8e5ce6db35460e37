import { AvroCodec, blobKeyOf, createJobIdClock, imageBlobKeys, type IngestRequested } from '@memory/contracts';
import { inspectImage, makePreview } from '@memory/image-analysis';
import type { BlobStore, EventLog, JobStore } from '@memory/ports';
import { acceptJob } from './accept-job.js';
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


/** The ingestion use case: store the bytes (claim check), build the event, and accept it as a job (acceptJob). */
export function createIngestion(deps: IngestionDeps) {
  const nextJobId = deps.nextJobId ?? createJobIdClock();

  const accept = (event: Omit<IngestRequested, 'memoryId' | 'cause'>) => acceptJob(deps, 'ingestRequested', { ...event, memoryId: null, cause: 'ingest' });

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
        blob: { key: original.key, contentType: original.contentType, size: original.size, fileName: null }, metadata: request.metadata,
      });
      return { ...ack, previewKey: keys.preview };
    },
    /**
     * Streams the PDF into the blob store (nothing held in memory), then publishes the event. A file over the limit
     * or not a PDF leaves nothing stored: the blob store keeps no partial object. Metadata sent after the file is
     * known only once the file is stored: when it is refused, the stored file is deleted again.
     */
    async acceptDocument(tenantId: string, endUserId: string, timeZone: string | null, upload: IncomingPdf, maxBytes: number) {
      const { jobId, acceptedAt } = nextJobId('document', endUserId);
      const fileName = sanitiseFileName(upload.fileName);
      const key = blobKeyOf(tenantId, endUserId, jobId, fileName);
      let stored;
      try {
        stored = await blobStore().put(key, upload.stream, 'application/pdf', { maxBytes });
      } catch (error) {
        throw uploadError(error, maxBytes);
      }
      let metadata;
      try {
        metadata = await upload.metadata;
      } catch (error) {
        await blobStore().delete(stored.key).catch((cause: unknown) => deps.logger.warn('could not delete a refused upload', { key: stored.key, error: String(cause) }));
        throw error;
      }
      const ack = await accept({
        jobId, tenantId, endUserId, kind: 'document', acceptedAt,
        content: null, sourceTimestamp: null, timeZone, userContext: null,
        blob: { key: stored.key, contentType: stored.contentType, size: stored.size, fileName: upload.fileName }, metadata,
      });
      return { ...ack, storagePath: stored.key };
    },
    acceptText(tenantId: string, endUserId: string, timeZone: string | null, request: TextIngestRequest) {
      const { jobId, acceptedAt } = nextJobId('text', endUserId);
      return accept({
        jobId, tenantId, endUserId, kind: 'text', acceptedAt,
        content: request.content, sourceTimestamp: request.sourceTimestamp, timeZone, userContext: request.userContext, blob: null, metadata: request.metadata,
      });
    },
  };
}

export type Ingestion = ReturnType<typeof createIngestion>;

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
