import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { Router } from 'express';
import { httpRequestDuration, httpRequests, metricsExposition } from '@memory/metrics';
import { REQUEST_ID_HEADER, requestIdOf, withRequestId } from '@memory/platform';
import { OPERATIONS } from './openapi/operations.js';

/** Paths served beside the documented ones (POST /mcp is its own protocol, outside the OpenAPI document). */
const UNDOCUMENTED_ROUTES = [{ method: 'post', path: '/mcp' }];

/** The documented route templates as matchers: /v1/memories/{id} matches /v1/memories/mem_1 and nothing longer. */
const TEMPLATES = [...OPERATIONS, ...UNDOCUMENTED_ROUTES].map(({ method, path }) => ({
  method: method.toUpperCase(),
  path,
  pattern: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The route template a request is counted under: its documented path, or "unmatched" for any other path, so a
 * label never holds an id (cardinality, privacy) and a scan of random paths adds no series. A refused request
 * (401, 400) counts under the route it was sent to, which a label from Express's router would not know.
 */
export function routeTemplate(method: string | undefined, url: string | undefined): string {
  const path = (url ?? '').split('?')[0]!;
  const upper = method === 'HEAD' ? 'GET' : method;
  return TEMPLATES.find((template) => template.method === upper && template.pattern.test(path))?.path ?? 'unmatched';
}

/**
 * What every request gets whichever code answers it (Express, the text fast path): an X-Request-Id, taken from the
 * client when it is a valid one or generated, sent back on the answer and current while the request is served (the
 * logger, the error body and the job's records read it); and its count and duration in the metrics.
 */
export function requestEnvelope(listener: RequestListener): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const requestId = requestIdOf(req.headers[REQUEST_ID_HEADER]);
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    res.once('close', () => {
      const route = routeTemplate(req.method, req.url);
      const method = METHODS.has(req.method ?? '') ? req.method! : 'other';
      // A client that left before the answer was sent is counted apart from the statuses the service chose.
      const status = res.writableFinished ? String(res.statusCode) : 'aborted';
      httpRequests.inc({ route, method, status });
      httpRequestDuration.observe({ route, method }, Number(process.hrtime.bigint() - started) / 1e9);
    });
    // Closed before the answer was written whole: the client left (a question asked now and then, so no signal is made for it).
    withRequestId(requestId, () => listener(req, res), () => res.closed && !res.writableFinished);
  };
}

/**
 * GET /metrics: Prometheus text, unauthenticated like the health routes, for a scraper that has no API key; it
 * holds no tenant, end user or job id. MEMORY_METRICS=off removes it (see the README's Metrics section).
 */
export function metricsRoutes(): Router {
  const router = Router();
  router.get('/metrics', async (_req, res) => {
    const { contentType, text } = await metricsExposition();
    res.type(contentType).send(text);
  });
  return router;
}
