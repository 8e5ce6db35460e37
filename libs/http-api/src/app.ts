import express, { type Express } from 'express';
import type { Logger } from '@memory/platform';
import type { JobStore } from '@memory/ports';
import type { SearchDeps } from '@memory/search';
import type { ApiKeyRegistry } from './auth.js';
import type { Ingestion } from './ingestion.js';
import { errorHandler, notFound } from './error-handler.js';
import { requireApiKey } from './routes/guards.js';
import { memoryRoutes } from './routes/memory.js';
import { searchRoutes } from './routes/search.js';
import { mediaRoutes } from './routes/ingest-media.js';
import { jobRoutes } from './routes/jobs.js';
import { healthRoutes, type Readiness } from './routes/health.js';

export interface HttpApiDeps {
  apiKeys: ApiKeyRegistry;
  ingestion: Ingestion;
  search: SearchDeps;
  jobs: JobStore;
  logger: Logger;
  readiness: () => Promise<Readiness>;
}

export function createHttpApi(deps: HttpApiDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(healthRoutes(deps.readiness));
  app.use('/v1', requireApiKey(deps.apiKeys));
  app.use(memoryRoutes(deps.ingestion));
  app.use(mediaRoutes());
  app.use(searchRoutes(deps.search));
  app.use(jobRoutes(deps.jobs));
  app.use(notFound);
  app.use(errorHandler(deps.logger));
  return app;
}
