import { AvroCodec, createJobIdClock, imageBlobKeys, userKey, type IngestRequested } from '@memory/contracts';
import { inspectImage, makePreview } from '@memory/image-analysis';
import type { BlobStore, EventLog, JobStore } from '@memory/ports';
import { applyJobStatus } from '@memory/stage-job-tracker';
import { EVENTS } from '@memory/contracts';
import type { Logger } from '@memory/platform';
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
