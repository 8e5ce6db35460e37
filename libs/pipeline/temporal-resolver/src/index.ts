import type { StageSpec } from '@memory/pipeline-runtime';
import { progress } from '@memory/pipeline-runtime';
import { resolveTimeReferences } from '@memory/temporal';

/**
 * Replaces relative time references in a memory's text by absolute ISO 8601 timestamps, resolved against the
 * time the request was accepted (or the client's source.timestamp), never the time it is processed: replays
 * resolve "tomorrow" to the same day.
 */
export const temporalResolverStage: StageSpec<'ingestRequested', Record<string, never>> = {
  name: 'temporal-resolver',
  group: 'temporal-resolver',
  inputs: ['ingestRequested'],
  outputs: ['resolved', 'jobStatus'],
  async process(batch) {
    return batch.map(({ value: request }) => {
      const referenceTime = request.sourceTimestamp ?? request.acceptedAt;
      const resolved = request.content === null
        ? { resolvedText: null, mentions: [] }
        : resolveTimeReferences(request.content, { referenceTime, timeZone: request.timeZone });
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
            originalContent: request.content,
            resolvedContent: resolved.resolvedText,
            eventTimes: resolved.mentions,
            blob: request.blob,
          },
        },
        progress('temporal-resolver', request),
      ];
    });
  },
};
