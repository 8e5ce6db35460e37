import { Router, raw, type Request, type Response } from 'express';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
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
  const agent = new Agent({ keepAlive: true });
  for (const path of SEARCH_PATHS) router.post(path, raw({ type: () => true, limit: REQUEST_LIMITS.imageJsonBodyBytes }), relay(rotation, agent));
  for (const path of MEMORY_READ_PATHS) router.get(path, relay(rotation, agent));
  return router;
}

/** What a search app answered, read whole. */
interface Upstream {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** How long a search app may stay silent before the relay gives up on it (and does not ask another). */
const UPSTREAM_TIMEOUT_MS = 30_000;

class UpstreamTimeout extends Error {
  constructor() {
    super(`no answer within ${UPSTREAM_TIMEOUT_MS} ms`);
    this.name = 'TimeoutError';
  }
}

/**
 * One round trip on node:http over kept-alive connections: the relay sits in front of every search, and fetch's
 * streams and header objects cost the edge more CPU than the rest of a relayed search (README, "The edge's relay").
 * A kept-alive connection the app closed just as it was reused is retried once on a new one: that is not the app failing.
 */
function askSearchApp(agent: Agent, url: string, method: string, headers: Record<string, string>, body: Buffer | undefined, retried = false): Promise<Upstream> {
  return new Promise<Upstream>((resolve, reject) => {
    const req = request(url, { method, headers: body ? { ...headers, 'content-length': String(body.length) } : headers, agent, timeout: UPSTREAM_TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new UpstreamTimeout()));
    req.on('error', (error: Error & { code?: string }) => {
      if (req.reusedSocket && error.code === 'ECONNRESET' && !retried) resolve(askSearchApp(agent, url, method, headers, body, true));
      else reject(error);
    });
    req.end(body);
  });
}

/** One request to the apps in the rotation's order: the next is asked only when one gave no answer (a search and a read are safe to send again), never after a timeout. */
async function askAny(rotation: SearchRotation, agent: Agent, path: string, method: string, headers: Record<string, string>, body: Buffer | undefined): Promise<Upstream> {
  const failures: string[] = [];
  for (const base of rotation.order()) {
    try {
      const upstream = await askSearchApp(agent, `${base}${path}`, method, headers, body);
      rotation.answered(base);
      return upstream;
    } catch (error) {
      rotation.failed(base);
      failures.push(`${base} (${(error as Error).message})`);
      if (error instanceof UpstreamTimeout) break;
    }
  }
  throw new RequestError(503, 'SEARCH.UNAVAILABLE', `no search app answered: ${failures.join(', ')}; retry shortly`);
}

function relay(rotation: SearchRotation, agent: Agent) {
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
    const upstream = await askAny(rotation, agent, req.originalUrl, req.method, headers, Buffer.isBuffer(req.body) ? req.body : undefined);
    res.status(upstream.status);
    const contentType = upstream.headers['content-type'];
    if (contentType) res.setHeader('content-type', contentType);
    // The search app's 503 says when to come back; the client hears the same.
    const retryAfter = upstream.headers['retry-after'];
    if (retryAfter) res.setHeader('retry-after', retryAfter);
    // The search app's steps, and the relay's own: the round trip to the search app, its answer read whole.
    const steps = upstream.headers['server-timing'];
    const relayed = serverTimingHeader([{ step: 'edge.relay', count: 1, ms: performance.now() - started }]);
    res.setHeader('server-timing', steps ? `${steps}, ${relayed}` : relayed);
    res.end(upstream.body);
  };
}
