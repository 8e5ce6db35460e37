import { Router } from 'express';
import { RequestError } from '@memory/platform';

/** Image and PDF ingestion are answered honestly until their pipeline exists. */
export function mediaRoutes(): Router {
  const router = Router();
  router.post(['/v1/memory/image', '/v1/ingest/document/upload'], () => {
    throw new RequestError(501, 'INGEST.KIND_UNAVAILABLE', 'image and PDF ingestion are not available in this version yet; text memories go to POST /v1/memory');
  });
  return router;
}
