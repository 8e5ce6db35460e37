import { Router } from 'express';
import type { Ingestion } from '../ingestion.js';
import { receivePdf } from '../upload.js';
import { validateTimeZone } from '../validation.js';
import { scopeOf } from './guards.js';

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
      // Stop reading the rest of a refused upload: the connection closes after the error answer.
      res.setHeader('connection', 'close');
      throw error;
    }
  });
  return router;
}
