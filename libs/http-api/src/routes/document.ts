import { Router, type Request } from 'express';
import { IDEMPOTENCY_KEY_HEADER, requestFingerprint, validateIdempotencyKey, type Idempotency } from '../idempotency.js';
import type { Ingestion } from '../ingestion.js';
import { receivePdf } from '../upload.js';
import { validateTimeZone } from '../validation.js';
import { scopeOf, sendOutcome } from './guards.js';

const DISCARD_LIMIT_BYTES = 64 * 1024 * 1024;

/** Reads the rest of a request body into nothing; false when it is longer than `limit` (then it stops reading). */
function discardRest(req: Request, limit: number): Promise<boolean> {
  if (req.readableEnded) return Promise.resolve(true);
  return new Promise((resolve) => {
    let seen = 0;
    req.unpipe();
    req.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > limit) {
        req.pause();
        resolve(false);
      }
    });
    req.once('end', () => resolve(true));
    req.once('error', () => resolve(false));
    req.resume();
  });
}

/** PDF upload: multipart/form-data, one part `file` (application/pdf and the PDF magic bytes), streamed to the blob store. */
export function documentRoutes(ingestion: Ingestion, idempotency: Idempotency, maxBytes: number): Router {
  const router = Router();
  router.post('/v1/ingest/document/upload', async (req, res) => {
    const scope = scopeOf(req, res.locals['tenantId'] as string);
    const timeZone = validateTimeZone(req.header('x-end-user-timezone'));
    try {
      // Checked before the upload is read: a malformed key stores nothing.
      const key = validateIdempotencyKey(req.header(IDEMPOTENCY_KEY_HEADER));
      const upload = await receivePdf(req, maxBytes);
      // The fingerprint needs the file's hash, known once the bytes are stored: a replay or a refusal removes them again.
      const stored = await ingestion.storeDocument(scope.tenantId, scope.endUserId, upload, maxBytes, { hash: key !== undefined });
      const outcome = await idempotency.run({
        scope,
        key,
        fingerprint: () => requestFingerprint('POST /v1/ingest/document/upload', { timeZone, fileName: stored.fileName, sha256: stored.sha256, metadata: JSON.stringify(stored.metadata) }),
        newJobId: async () => stored.jobId,
        accept: async (givenJobId) => {
          const { status, jobId, storagePath } = await ingestion.publishDocument(stored, timeZone, givenJobId);
          return { status: 202, body: { status, jobId, storagePath } };
        },
        discard: () => ingestion.discardDocument(stored),
      });
      sendOutcome(res, outcome);
    } catch (error) {
      // A client still sending a refused upload would see its connection reset if we answered and closed now: read
      // and drop what is left, up to a bound, then answer; past the bound, answer and close.
      if (!(await discardRest(req, DISCARD_LIMIT_BYTES))) res.setHeader('connection', 'close');
      throw error;
    }
  });
  return router;
}
