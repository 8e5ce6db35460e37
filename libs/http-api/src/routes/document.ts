import { Router, type Request } from 'express';
import type { Ingestion } from '../ingestion.js';
import { receivePdf } from '../upload.js';
import { validateTimeZone } from '../validation.js';
import { scopeOf } from './guards.js';

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
export function documentRoutes(ingestion: Ingestion, maxBytes: number): Router {
  const router = Router();
  router.post('/v1/ingest/document/upload', async (req, res) => {
    const scope = scopeOf(req, res.locals['tenantId'] as string);
    const timeZone = validateTimeZone(req.header('x-end-user-timezone'));
    try {
      const upload = await receivePdf(req, maxBytes);
      const { status, jobId, storagePath } = await ingestion.acceptDocument(scope.tenantId, scope.endUserId, timeZone, upload, maxBytes);
      res.status(202).json({ status, jobId, storagePath });
    } catch (error) {
      // A client still sending a refused upload would see its connection reset if we answered and closed now: read
      // and drop what is left, up to a bound, then answer; past the bound, answer and close.
      if (!(await discardRest(req, DISCARD_LIMIT_BYTES))) res.setHeader('connection', 'close');
      throw error;
    }
  });
  return router;
}
