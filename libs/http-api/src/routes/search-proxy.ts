import { Router, raw, type Request, type Response } from 'express';
import { performance } from 'node:perf_hooks';
import { RequestError, serverTimingHeader } from '@memory/platform';
import { REQUEST_LIMITS } from '../limits.js';
import { MEMORY_READ_PATHS } from './memories.js';

const FORWARDED_HEADERS = ['authorization', 'content-type', 'x-end-user-id', 'x-end-user-timezone'];
const SEARCH_PATHS = ['/v1/search', '/v1/memories/search'];

/**
 * In the distributed mode the edge answers on the one public port and hands searches and memory reads (GET
 * /v1/memories, GET /v1/memories/{id}) to the search app, which holds the vector store and validates and
 * authenticates them again (it may also be exposed on its own). Paths, query strings and bodies are relayed
 * untouched, so the search app's answer, errors included, reaches the client as it was written.
 */
export function searchProxyRoutes(searchUrl: string): Router {
  const router = Router();
  const base = searchUrl.replace(/\/+$/, '');
  for (const path of SEARCH_PATHS) router.post(path, raw({ type: () => true, limit: REQUEST_LIMITS.imageJsonBodyBytes }), relay(base));
  for (const path of MEMORY_READ_PATHS) router.get(path, relay(base));
  return router;
}

function relay(base: string) {
  return async (req: Request, res: Response) => {
    const headers: Record<string, string> = {};
    for (const name of FORWARDED_HEADERS) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    // The id this request answers with (the client's, or the one generated here), so both processes log the same.
    const requestId = res.getHeader('x-request-id');
    if (typeof requestId === 'string') headers['x-request-id'] = requestId;
    let upstream: globalThis.Response;
    const started = performance.now();
    try {
      upstream = await fetch(`${base}${req.originalUrl}`, {
        method: req.method,
        headers,
        body: Buffer.isBuffer(req.body) ? req.body : undefined,
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      throw new RequestError(503, 'SEARCH.UNAVAILABLE', `the search service at ${base} did not answer (${(error as Error).message}); retry shortly`);
    }
    res.status(upstream.status);
    const contentType = upstream.headers.get('content-type');
    if (contentType) res.type(contentType);
    // The search app's 503 says when to come back; the client hears the same.
    const retryAfter = upstream.headers.get('retry-after');
    if (retryAfter) res.setHeader('retry-after', retryAfter);
    const body = Buffer.from(await upstream.arrayBuffer());
    // The search app's steps, and the relay's own: the round trip to the search app, its answer read whole.
    const steps = upstream.headers.get('server-timing');
    const relayed = serverTimingHeader([{ step: 'edge.relay', count: 1, ms: performance.now() - started }]);
    res.setHeader('server-timing', steps ? `${steps}, ${relayed}` : relayed);
    res.send(body);
  };
}
