import { Router, raw, type Request, type Response } from 'express';
import { performance } from 'node:perf_hooks';
import { RequestError, serverTimingHeader } from '@memory/platform';
import { REQUEST_LIMITS } from '../limits.js';
import { MEMORY_READ_PATHS } from './memories.js';

const FORWARDED_HEADERS = ['authorization', 'content-type', 'x-end-user-id', 'x-end-user-timezone'];
const SEARCH_PATHS = ['/v1/search', '/v1/memories/search'];

/** How long a search app that refused a connection is passed over before it is tried again. */
export const SEARCH_APP_PAUSE_MS = 2_000;

/**
 * The search apps in turn (round robin). One that gave no answer is passed over for a pause, then tried again, so
 * an app that stops (or has not started yet) costs the requests nothing, and one that starts again rejoins by itself.
 */
export class SearchRotation {
  private next = 0;
  private readonly pausedUntil = new Map<string, number>();

  constructor(
    readonly urls: readonly string[],
    private readonly now: () => number = Date.now,
  ) {
    if (urls.length === 0) throw new RangeError('the edge needs at least one search app URL');
  }

  /** The order to try for one request: the next app in turn first, apps on pause last (better late than no answer). */
  order(): string[] {
    const start = this.next;
    this.next = (this.next + 1) % this.urls.length;
    const turn = this.urls.map((_, i) => this.urls[(start + i) % this.urls.length]!);
    const now = this.now();
    const paused = (url: string) => (this.pausedUntil.get(url) ?? 0) > now;
    return [...turn.filter((url) => !paused(url)), ...turn.filter(paused)];
  }

  failed(url: string): void {
    this.pausedUntil.set(url, this.now() + SEARCH_APP_PAUSE_MS);
  }

  answered(url: string): void {
    this.pausedUntil.delete(url);
  }
}

/**
 * In the distributed mode the edge answers on the one public port and hands searches and memory reads (GET
 * /v1/memories, GET /v1/memories/{id}) to the search apps (MEMORY_SEARCH_URL, comma-separated, taken in turn), which read
 * the shared stores and validate and authenticate the request again (they may also be exposed on their own). Paths, query strings and bodies are relayed untouched, so the search app's answer, errors
 * included, reaches the client as it was written.
 */
export function searchProxyRoutes(searchUrls: readonly string[]): Router {
  const router = Router();
  const rotation = new SearchRotation(searchUrls.map((url) => url.replace(/\/+$/, '')));
  for (const path of SEARCH_PATHS) router.post(path, raw({ type: () => true, limit: REQUEST_LIMITS.imageJsonBodyBytes }), relay(rotation));
  for (const path of MEMORY_READ_PATHS) router.get(path, relay(rotation));
  return router;
}

/** One request to the apps in the rotation's order: the next is asked only when one gave no answer (a search and a read are safe to send again), never after a timeout. */
async function fetchFromAny(rotation: SearchRotation, path: string, init: RequestInit): Promise<globalThis.Response> {
  const failures: string[] = [];
  for (const base of rotation.order()) {
    try {
      const upstream = await fetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(30_000) });
      rotation.answered(base);
      return upstream;
    } catch (error) {
      rotation.failed(base);
      failures.push(`${base} (${(error as Error).message})`);
      if ((error as Error).name === 'TimeoutError') break;
    }
  }
  throw new RequestError(503, 'SEARCH.UNAVAILABLE', `no search app answered: ${failures.join(', ')}; retry shortly`);
}

function relay(rotation: SearchRotation) {
  return async (req: Request, res: Response) => {
    const headers: Record<string, string> = {};
    for (const name of FORWARDED_HEADERS) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    // The id this request answers with (the client's, or the one generated here), so both processes log the same.
    const requestId = res.getHeader('x-request-id');
    if (typeof requestId === 'string') headers['x-request-id'] = requestId;
    const started = performance.now();
    const upstream = await fetchFromAny(rotation, req.originalUrl, { method: req.method, headers, body: Buffer.isBuffer(req.body) ? req.body : undefined });
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
