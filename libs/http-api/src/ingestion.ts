import { AvroCodec, createJobIdClock, userKey, type IngestRequested } from '@memory/contracts';
import type { EventLog, JobStore } from '@memory/ports';
import { applyJobStatus } from '@memory/stage-job-tracker';
import { EVENTS } from '@memory/contracts';
import type { Logger } from '@memory/platform';
import type { TextIngestRequest } from './validation.js';

export interface IngestionDeps {
  log: EventLog;
  codec: AvroCodec;
  jobs: JobStore;
  logger: Logger;
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

  return {
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
