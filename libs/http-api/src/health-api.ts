import type { RequestListener } from 'node:http';
import express from 'express';
import type { Logger } from '@memory/platform';
import { errorHandler, notFound } from './error-handler.js';
import { healthRoutes, type Readiness } from './routes/health.js';
import { metricsRoutes, requestEnvelope } from './request-envelope.js';

export { guardHttpServer } from './client-error.js';
export { closeHttpServer } from './close-server.js';
export type { Readiness } from './routes/health.js';

/**
 * The HTTP port of a process without /v1 routes (a stage worker): health and metrics only. Its own entry point
 * (`@memory/http-api/health`) so such a process never loads the API's routes, schemas and the libraries behind them.
 */
export function createHealthApi(deps: { readiness: () => Promise<Readiness>; metrics?: boolean; logger: Logger }): RequestListener {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(healthRoutes(deps.readiness));
  if (deps.metrics) app.use(metricsRoutes());
  app.use(notFound);
  app.use(errorHandler(deps.logger));
  return requestEnvelope(app);
}
