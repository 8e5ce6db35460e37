import { requestFingerprint, type Idempotency, type IdempotentOutcome } from './idempotency.js';
import type { Ingestion } from './ingestion.js';
import { validateEndUserId, validateTextIngest, validateTimeZone } from './validation.js';

export interface TextIngestDeps {
  ingestion: Ingestion;
  idempotency: Idempotency;
}

/** The headers of POST /v1/memory that the ingestion reads, as received. */
export interface TextIngestHeaders {
  endUserId: string | undefined;
  timeZone: string | undefined;
  idempotencyKey: string | undefined;
}

/**
 * POST /v1/memory after authentication and body parsing: checks (end user, time zone, fields, key, in that order)
 * and the idempotent accept. The one implementation behind both the node:http fast path and the Express route.
 */
export function ingestText(deps: TextIngestDeps, tenantId: string, headers: TextIngestHeaders, body: unknown): Promise<IdempotentOutcome> {
  const endUserId = validateEndUserId(headers.endUserId);
  const timeZone = validateTimeZone(headers.timeZone);
  const request = validateTextIngest(body);
  return deps.idempotency.run({
    scope: { tenantId, endUserId },
    key: headers.idempotencyKey,
    fingerprint: () => requestFingerprint('POST /v1/memory', { timeZone, body: JSON.stringify(body) }),
    newJobId: () => deps.ingestion.newJobId('text', tenantId, endUserId),
    accept: async (jobId) => ({ status: 202, body: await deps.ingestion.acceptText(tenantId, endUserId, timeZone, request, jobId) }),
  });
}
