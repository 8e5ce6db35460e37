import { Router } from 'express';
import { RequestError } from '@memory/platform';

/** PDF ingestion is answered honestly until its pipeline exists. */
export function mediaRoutes(): Router {
  const router = Router();
  router.post('/v1/ingest/document/upload', () => {
    throw new RequestError(501, 'INGEST.KIND_UNAVAILABLE', 'PDF ingestion is not available in this version yet; text memories go to POST /v1/memory, images to POST /v1/memory/image');
  });
  return router;
}
