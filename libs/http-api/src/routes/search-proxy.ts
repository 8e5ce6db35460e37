import { Router, raw, type Request, type Response } from 'express';
import { RequestError } from '@memory/platform';
import { REQUEST_LIMITS } from '../limits.js';
import { MEMORY_READ_PATHS } from './memories.js';

const FORWARDED_HEADERS = ['authorization', 'content-type', 'x-end-user-id', 'x-end-user-timezone', 'x-request-id'];
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
    let upstream: globalThis.Response;
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
    res.send(Buffer.from(await upstream.arrayBuffer()));
  };
}
