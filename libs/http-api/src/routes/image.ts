import { Router, json } from 'express';
import { RequestError } from '@memory/platform';
import type { BlobStore } from '@memory/ports';
import { imageBlobKeys } from '@memory/contracts';
import { IDEMPOTENCY_KEY_HEADER, requestFingerprint, type Idempotency } from '../idempotency.js';
import type { Ingestion } from '../ingestion.js';
import { REQUEST_LIMITS } from '../limits.js';
import { validateId, validateImageIngest, validateTimeZone } from '../validation.js';
import { requireJson, scopeOf, sendOutcome } from './guards.js';

const PREVIEW_PATH = '/v1/memory/image/:jobId/preview';

/**
 * Image memories. x-end-user-id is required here as on every route that reads or writes an end user's memories.
 * previewUrl is served by this API with the same authentication (Bearer key and x-end-user-id), not a signed URL:
 * one rule for every byte of a user's data.
 */
export function imageRoutes(ingestion: Ingestion, idempotency: Idempotency, blobs: BlobStore, publicUrl?: string): Router {
  const router = Router();
  router.post('/v1/memory/image', requireJson, json({ limit: REQUEST_LIMITS.imageJsonBodyBytes }), async (req, res) => {
    const scope = scopeOf(req, res.locals['tenantId'] as string);
    const timeZone = validateTimeZone(req.header('x-end-user-timezone'));
    const request = validateImageIngest(req.body);
    const outcome = await idempotency.run({
      scope,
      key: req.header(IDEMPOTENCY_KEY_HEADER),
      fingerprint: () => requestFingerprint('POST /v1/memory/image', { timeZone, body: JSON.stringify(req.body) }),
      newJobId: () => ingestion.newJobId('image', scope.tenantId, scope.endUserId),
      accept: async (givenJobId) => {
        const { status, jobId } = await ingestion.acceptImage(scope.tenantId, scope.endUserId, timeZone, request, givenJobId);
        const path = PREVIEW_PATH.replace(':jobId', encodeURIComponent(jobId));
        // Without a public address configured, the request's own; without a Host (HTTP/1.0), the path alone.
        const base = publicUrl ?? (req.get('host') ? `${req.protocol}://${req.get('host')}` : '');
        const previewUrl = `${base}${path}`;
        return { status: 202, body: { status, jobId, previewUrl } };
      },
    });
    sendOutcome(res, outcome);
  });

  router.get(PREVIEW_PATH, async (req, res) => {
    const scope = scopeOf(req, res.locals['tenantId'] as string);
    const jobId = validateId(req.params['jobId'], 'jobId');
    const key = imageBlobKeys(scope.tenantId, scope.endUserId, jobId).preview;
    const info = await blobs.head(key);
    if (!info) throw new RequestError(404, 'IMAGE.PREVIEW_NOT_FOUND', `no preview for job ${jobId} of this end user`);
    res.status(200).type(info.contentType).setHeader('content-length', String(info.size));
    res.setHeader('cache-control', 'private, max-age=3600');
    const stream = await blobs.get(key);
    stream.pipe(res);
  });
  return router;
}
