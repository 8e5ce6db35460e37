import { mapWithConcurrency } from '@memory/platform';
import { hostileRequest, randFor } from './cases.js';
import { send, serialize, type WireOutcome, type WireRequest } from './http-wire.js';
import { routesOf, type Route } from './routes.js';
import { ValidTraffic, type ValidTrafficReport } from './valid-traffic.js';
import { judge } from './verdict.js';

export interface FuzzOptions {
  /** The service's base URL, e.g. http://127.0.0.1:8080. */
  url: string;
  apiKey: string;
  /** Hostile requests in all, shared out over the routes in turn. */
  requests: number;
  seed: number;
  /** Only these request indexes (replaying a failure); the seed must be the one that found it. */
  only?: number[];
  /** Connections in flight at once. Default 8. */
  concurrency?: number;
  timeoutMs?: number;
  /** The service's resident memory in MB, sampled once a second; null when it cannot be read (a remote service). */
  rssMb?: () => number | null;
  /** RSS above this fails the run. Default 2048. */
  maxRssMb?: number;
  /** One round of valid traffic (an ingestion and a search) every this many hostile requests. Default 50. */
  validEvery?: number;
  /** Progress lines. */
  print?: (line: string) => void;
}

export interface FuzzFailure {
  index: number;
  kind: string;
  route: string;
  problem: string;
  /** The start of the request as sent (escaped), to read; the seed and index reproduce it exactly. */
  request: string;
}

export interface FuzzReport {
  seed: number;
  requests: number;
  routes: string[];
  /** Answers by "status code", e.g. "400 REQUEST.INVALID_JSON". */
  byStatus: Record<string, number>;
  byKind: Record<string, number>;
  failures: FuzzFailure[];
  rss: Array<{ atMs: number; mb: number }>;
  maxRssMb: number | null;
  rssLimitMb: number;
  valid: ValidTrafficReport;
  /** The service still answered /health/live after the run. */
  alive: boolean;
  durationMs: number;
  pass: boolean;
}

const VALID_END_USER = 'fuzz-valid';
const FUZZ_END_USER = 'fuzz-user';
/** Every this many requests, a burst of connections opened at once and cut before their request is whole. */
const CUT_BURST_EVERY = 250;
const CUT_BURST_SIZE = 25;

/** Printable start of a request: what a failure line shows. */
export function describeRequest(request: WireRequest, host: string, max = 400): string {
  const bytes = serialize(request, host);
  const text = bytes.subarray(0, max).toString('latin1').replace(/[^\x20-\x7e]/g, (c) => (c === '\r' ? '\\r' : c === '\n' ? '\\n\n' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
  return bytes.length > max ? `${text}... (${bytes.length} bytes in all)` : text;
}

/**
 * Sends `requests` hostile requests (and the cut bursts) to every route of the service's /openapi.json, with valid
 * traffic interleaved, and judges every answer. The report says what came back and whether the run passes.
 */
export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const url = new URL(options.url);
  const print = options.print ?? (() => undefined);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const rssLimitMb = options.maxRssMb ?? 2048;
  const started = performance.now();
  const routes = await fetchRoutes(options.url);
  const byStatus: Record<string, number> = {};
  const byKind: Record<string, number> = {};
  const failures: FuzzFailure[] = [];
  const count = (record: Record<string, number>, key: string) => (record[key] = (record[key] ?? 0) + 1);

  const rss: Array<{ atMs: number; mb: number }> = [];
  const sample = () => {
    const mb = options.rssMb?.();
    if (mb !== null && mb !== undefined) rss.push({ atMs: Math.round(performance.now() - started), mb: Math.round(mb) });
  };
  sample();
  const sampler = setInterval(sample, 1_000);

  const valid = new ValidTraffic(options.url, options.apiKey, VALID_END_USER);
  const validEvery = options.validEvery ?? 50;
  const indexes = options.only ?? Array.from({ length: options.requests }, (_, i) => i);
  let done = 0;
  try {
    await mapWithConcurrency(indexes, options.concurrency ?? 8, async (index) => {
      if (!options.only && index % validEvery === 0) valid.round(index);
      if (!options.only && index > 0 && index % CUT_BURST_EVERY === 0) {
        for (const outcome of await cutBurst(url, routes, options, index)) {
          const judged = judge(outcome, true);
          count(byStatus, judged.label);
          count(byKind, 'concurrent-cut');
          if (judged.failure) failures.push({ index, kind: 'concurrent-cut', route: 'several', problem: judged.failure, request: `the cut burst before request #${index}` });
        }
      }
      const { kind, request } = hostileRequest(routes, index, options.seed, options.apiKey, FUZZ_END_USER);
      const route = routes[index % routes.length]!;
      const outcome = await send(url, request, timeoutMs);
      const judged = judge(outcome, request.cut !== undefined);
      count(byStatus, judged.label);
      count(byKind, kind);
      if (judged.failure) failures.push({ index, kind, route: `${route.method} ${route.path}`, problem: judged.failure, request: describeRequest(request, url.host) });
      if (++done % 1_000 === 0) print(`  ${done}/${indexes.length} sent, ${failures.length} failures, RSS ${rss[rss.length - 1]?.mb ?? '?'} MB`);
    });
  } finally {
    clearInterval(sampler);
  }
  print('  waiting for the valid traffic to complete...');
  const validReport = await valid.settle(120_000);
  sample();
  const alive = await fetch(`${options.url}/health/live`, { signal: AbortSignal.timeout(10_000) }).then((res) => res.status === 200, () => false);
  const maxRssMb = rss.length ? Math.max(...rss.map((s) => s.mb)) : null;
  const pass = failures.length === 0 && alive && (maxRssMb === null || maxRssMb <= rssLimitMb) && validReport.failures.length === 0 && validReport.completed === validReport.accepted;
  return {
    seed: options.seed,
    requests: indexes.length,
    routes: routes.map((r) => `${r.method} ${r.path}`),
    byStatus,
    byKind,
    failures,
    rss,
    maxRssMb,
    rssLimitMb,
    valid: validReport,
    alive,
    durationMs: Math.round(performance.now() - started),
    pass,
  };
}

async function fetchRoutes(base: string): Promise<Route[]> {
  const res = await fetch(`${base}/openapi.json`, { signal: AbortSignal.timeout(30_000) });
  if (res.status !== 200) throw new Error(`GET ${base}/openapi.json answered ${res.status}: the fuzz takes its routes from the service's OpenAPI document`);
  const routes = routesOf(await res.json());
  if (routes.length === 0) throw new Error('the OpenAPI document lists no routes');
  return routes;
}

/** Connections opened together, each sending part of a request, then reset: the server must shrug them all off. */
async function cutBurst(url: URL, routes: Route[], options: FuzzOptions, index: number): Promise<WireOutcome[]> {
  const rand = randFor(options.seed, -index);
  return Promise.all(
    Array.from({ length: CUT_BURST_SIZE }, (_, i) => {
      const { request } = hostileRequest(routes, index + i, options.seed, options.apiKey, FUZZ_END_USER);
      request.cut = { afterBytes: rand.int(300), how: 'destroy' };
      return send(url, request, 5_000);
    }),
  );
}
