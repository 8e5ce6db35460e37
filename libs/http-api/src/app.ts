import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import express from 'express';
import { ConfigError, type Logger } from '@memory/platform';
import type { BlobStore, JobStore } from '@memory/ports';
import type { ApiKeyRegistry } from './auth.js';
import type { Idempotency } from './idempotency.js';
import type { Ingestion } from './ingestion.js';
import type { Forgetting } from './forgetting.js';
import type { Updating } from './updating.js';
import { updateRoutes } from './routes/update.js';
import { forgetRoutes } from './routes/forget.js';
import { errorHandler, notFound } from './error-handler.js';
import { requireApiKey } from './routes/guards.js';
import { memoryRoutes } from './routes/memory.js';
import { searchRoutes, type SearchRouteDeps } from './routes/search.js';
import { imageRoutes } from './routes/image.js';
import { documentRoutes } from './routes/document.js';
import { REQUEST_LIMITS } from './limits.js';
import { jobRoutes } from './routes/jobs.js';
import { healthRoutes, type Readiness } from './routes/health.js';
import { searchProxyRoutes } from './routes/search-proxy.js';
import { memoryReadRoutes } from './routes/memories.js';
import { mcpRoutes, type McpRouteOptions } from './routes/mcp.js';
import { handleTextIngestFast } from './text-ingest-fast-path.js';
import { referenceRoutes } from './routes/reference.js';
import { webhookRoutes, type WebhookRouteDeps } from './routes/webhooks.js';
import { admitWrites, type Admission } from './admission.js';
import { metricsRoutes, requestEnvelope } from './request-envelope.js';

/**
 * What one process serves. The embedded service serves everything; in the distributed mode the edge serves
 * ingestion and jobs and relays searches and memory reads to the search app (`search: { proxyTo }`), which serves
 * those alone: the process that holds the vector store answers both.
 */
export interface HttpApiDeps {
  apiKeys: ApiKeyRegistry;
  ingestion?: Ingestion;
  /** DELETE of memories, jobs and end users; served where ingestion is. */
  forgetting?: Forgetting;
  /** Idempotency-Key on every route that creates a job; required with ingestion. */
  idempotency?: Idempotency;
  /** PATCH of a memory; served where ingestion is (it reads the memory from the vector store). */
  updating?: Updating;
  /** Images and PDFs (with ingestion): originals and previews. */
  blobs?: BlobStore;
  /** The address clients reach this API at, for the links answers carry; unset: each request's scheme and Host. */
  publicUrl?: string;
  /** Largest PDF upload in bytes; default REQUEST_LIMITS.documentMaxBytes. */
  documentMaxBytes?: number;
  search?: SearchRouteDeps | { proxyTo: readonly string[] };
  jobs?: JobStore;
  /** The tenant's webhook endpoints and their delivery log; served where jobs are. */
  webhooks?: WebhookRouteDeps;
  /** POST /mcp, served where ingestion and jobs are (memoryd, the edge): its tools call this process's /v1 routes. */
  mcp?: McpRouteOptions;
  /** Rate, in-flight, backlog and disk bounds on the routes that create jobs; none without it. */
  admission?: Admission;
  logger: Logger;
  readiness: () => Promise<Readiness>;
  /** Serve GET /metrics (Prometheus text, unauthenticated); MEMORY_METRICS=off turns it off. */
  metrics?: boolean;
}

/**
 * The service's HTTP API as a node:http listener: every request gets its request id and is measured
 * (requestEnvelope), then text ingestion's fast path, then Express for everything else.
 */
export function createHttpApi(deps: HttpApiDeps): RequestListener {
  const { ingestion, idempotency } = deps;
  if (ingestion && !idempotency) throw new ConfigError('the HTTP API needs an idempotency store to serve ingestion');
  const app = expressApp(deps);
  if (!ingestion || !idempotency) return requestEnvelope(app);
  const fastPath = { apiKeys: deps.apiKeys, ingestion, idempotency, logger: deps.logger, ...(deps.admission ? { admission: deps.admission } : {}) };
  return requestEnvelope((req: IncomingMessage, res: ServerResponse) => {
    if (!handleTextIngestFast(req, res, fastPath)) app(req, res);
  });
}

/** The Express part of the API (everything but the text fast path); exported for the test that compares its routes with the document. */
export function expressApp(deps: HttpApiDeps) {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(healthRoutes(deps.readiness), referenceRoutes());
  if (deps.metrics) app.use(metricsRoutes());
  if (deps.mcp && deps.ingestion && deps.jobs) app.use(mcpRoutes(deps.apiKeys, deps.mcp));
  app.use('/v1', requireApiKey(deps.apiKeys));
  if (deps.admission) app.use(admitWrites(deps.admission));
  if (deps.ingestion && deps.idempotency) {
    app.use(memoryRoutes({ ingestion: deps.ingestion, idempotency: deps.idempotency }));
    if (deps.blobs) {
      app.use(imageRoutes(deps.ingestion, deps.idempotency, deps.blobs, deps.publicUrl));
      app.use(documentRoutes(deps.ingestion, deps.idempotency, deps.documentMaxBytes ?? REQUEST_LIMITS.documentMaxBytes));
    }
  }
  if (deps.forgetting && deps.idempotency) app.use(forgetRoutes(deps.forgetting, deps.idempotency));
  if (deps.updating && deps.idempotency) app.use(updateRoutes(deps.updating, deps.idempotency));
  if (deps.search && 'proxyTo' in deps.search) app.use(searchProxyRoutes(deps.search.proxyTo));
  else if (deps.search) app.use(searchRoutes(deps.search), memoryReadRoutes(deps.search.vectors));
  if (deps.jobs) app.use(jobRoutes(deps.jobs));
  if (deps.webhooks) app.use(webhookRoutes(deps.webhooks));
  app.use(notFound);
  app.use(errorHandler(deps.logger));
  return app;
}
