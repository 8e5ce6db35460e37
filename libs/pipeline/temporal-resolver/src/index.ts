import type { StageSpec } from '@memory/pipeline-runtime';
import { progress } from '@memory/pipeline-runtime';
import { resolveTimeReferences } from '@memory/temporal';

/**
 * Replaces relative time references in a memory's text by absolute ISO 8601 timestamps, resolved against the
 * time the request was accepted (or the client's source.timestamp), never the time it is processed: replays
 * resolve "tomorrow" to the same day. An update's reference time is the memory's own (the edge sends it as
 * sourceTimestamp), so a corrected "yesterday" means the day before the memory, not before the correction.
 */
export const temporalResolverStage: StageSpec<'ingestRequested', Record<string, never>> = {
  name: 'temporal-resolver',
  group: 'temporal-resolver',
  inputs: ['ingestRequested'],
  outputs: ['resolved', 'jobStatus'],
  computesOnly: true,
  async process(batch) {
    return batch.map(({ value: request }) => {
      const referenceTime = request.sourceTimestamp ?? request.acceptedAt;
      // An image's words at ingestion are its user context ("Lily's party last Saturday"); what the image itself
      // says (OCR) is read later, by the enricher.
      const text = request.content ?? (request.kind === 'image' ? request.userContext : null);
      const resolved = text === null
        ? { resolvedText: null, mentions: [] }
        : resolveTimeReferences(text, { referenceTime, timeZone: request.timeZone });
      return [
        {
          event: 'resolved' as const,
          value: {
            jobId: request.jobId,
            tenantId: request.tenantId,
            endUserId: request.endUserId,
            kind: request.kind,
            acceptedAt: request.acceptedAt,
            referenceTime,
            timeZone: request.timeZone,
            userContext: request.userContext,
            originalContent: text,
            resolvedContent: resolved.resolvedText,
            eventTimes: resolved.mentions,
            blob: request.blob,
            metadata: request.metadata,
            memoryId: request.memoryId,
            cause: request.cause,
          },
        },
        progress('temporal-resolver', request),
      ];
    });
  },
};
