import { sampleSum } from '@memory/metrics';

/** The deployment under drill, as its clients see it. */
export interface DrillApi {
  url: string;
  apiKey: string;
}

/** The field at `path` of a parsed JSON body, or undefined when any step is missing or not an object. */
export function field(body: unknown, ...path: string[]): unknown {
  let value = body;
  for (const name of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[name];
  }
  return value;
}

/** The string at `path`, or null. */
export function textField(body: unknown, ...path: string[]): string | null {
  const value = field(body, ...path);
  return typeof value === 'string' ? value : null;
}

/** An HTTP answer, or none (status null, `code` says why: refused, reset, timed out). */
export interface Reply {
  status: number | null;
  code: string | null;
  retryAfter: string | null;
  /** The parsed JSON body (a string when it is not JSON, null when empty); read it with field(). */
  body: unknown;
  ms: number;
}

export interface CallOptions {
  endUserId?: string;
  json?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

/**
 * One request with a deadline. A drill must see what a client sees, so nothing is retried here and a missing
 * answer is a result (status null), not an exception.
 */
export async function call(api: DrillApi, method: 'GET' | 'POST', path: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { authorization: `Bearer ${api.apiKey}`, ...options.headers };
  if (options.endUserId) headers['x-end-user-id'] = options.endUserId;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const started = performance.now();
  try {
    const response = await fetch(api.url + path, {
      method,
      headers,
      ...(options.json !== undefined ? { body: JSON.stringify(options.json) } : options.form ? { body: options.form } : {}),
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
    const text = await response.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    return { status: response.status, code: textField(body, 'error', 'code'), retryAfter: response.headers.get('retry-after'), body, ms: performance.now() - started };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    const name = error instanceof Error ? error.name : 'Error';
    return { status: null, code: cause ?? (name === 'TimeoutError' ? 'TIMEOUT' : name), retryAfter: null, body: null, ms: performance.now() - started };
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The sum of a metric's samples (sampleSum) in a process's GET /metrics, or 0 when it gives no answer. */
export async function readMetric(baseUrl: string, name: string, labels: Record<string, string> = {}): Promise<number> {
  const response = await fetch(`${baseUrl}/metrics`, { signal: AbortSignal.timeout(10_000) }).catch(() => null);
  return response?.ok ? sampleSum([await response.text()], name, labels) : 0;
}
