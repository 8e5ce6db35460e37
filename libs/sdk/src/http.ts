import { apiErrorOf, MemoryApiError, MemoryConnectionError, MemoryError, MemoryTimeoutError } from './errors.js';
import { parseJson } from './json.js';

export interface ClientOptions {
  /** Where the service is, e.g. http://127.0.0.1:8080 (a trailing slash is ignored). */
  baseUrl: string;
  /** An API key of the service; it stands for a tenant. */
  apiKey: string;
  /** The end user the memory calls act for (x-end-user-id); a call's own endUserId wins. */
  endUserId?: string;
  /** IANA time zone that decides what "tomorrow at 5pm" means (x-end-user-timezone); UTC when absent. */
  timeZone?: string;
  /** Retries after the first attempt, on 429, 502, 503, 504 and network errors or timeouts (see RouteCall.retry). Default 2. */
  maxRetries?: number;
  /** Each attempt's time limit in ms (a job long poll gets its waitMs on top). Default 60,000. */
  timeoutMs?: number;
  /** The first retry waits a random time up to this many ms, doubling per retry (full jitter). Default 500. */
  retryInitialDelayMs?: number;
  /** No wait longer than this; a Retry-After beyond it is not waited for and the error is thrown. Default 30,000. */
  maxRetryDelayMs?: number;
  /** Another fetch (a proxy agent, a test double of the network); the global fetch by default. */
  fetch?: typeof fetch;
  /** Headers sent with every request, e.g. a tracing header. */
  headers?: Record<string, string>;
}

/** What every method takes last. */
export interface CallOptions {
  /** Cancels the call, its retries and its waits; the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * The write's Idempotency-Key; one is generated per call (crypto.randomUUID) when absent, and reused by its
   * retries. A caller that must not lose a write (a queue consumer, a job runner) stores its own key with the work
   * and sends it on each try, so even a try after a crash or an abort gets the first job instead of a second.
   */
  idempotencyKey?: string;
  /** Acts for this end user instead of the client's (x-end-user-id); e.g. waitForJob of another end user's erasure. */
  endUserId?: string;
  timeZone?: string;
  timeoutMs?: number;
  maxRetries?: number;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** One route call as the client methods describe it. */
export interface RouteCall {
  method: Method;
  path: string;
  query?: URLSearchParams;
  json?: unknown;
  /** A multipart body, built again for every attempt. */
  form?: () => FormData;
  /** Whether the route reads x-end-user-id (and x-end-user-timezone when timeZone). */
  endUser: 'required' | 'optional' | 'none';
  timeZone?: boolean;
  /**
   * key: a write that takes an Idempotency-Key, retried on any transient failure (no answer, 429, 502, 503, 504, 409
   * IDEMPOTENCY.IN_PROGRESS); safe: a read or an idempotent delete, same; unsafe: a write without a key, retried only
   * when the answer says nothing was done (429, 503 SERVICE.OVERLOADED), as anything else may follow a stored write.
   */
  retry: 'key' | 'safe' | 'unsafe';
  /**
   * A delete's not-found code: a retry answered 404 with it means an earlier attempt, whose answer was lost, did the
   * delete, so the call succeeds. The first attempt's 404 is still an error.
   */
  goneOnRetry?: string;
  answer: 'json' | 'blob' | 'text' | 'none';
  /** Added to the attempt's time limit: the job long poll's waitMs. */
  extraTimeoutMs?: number;
}

const DEFAULTS = { maxRetries: 2, timeoutMs: 60_000, retryInitialDelayMs: 500, maxRetryDelayMs: 30_000 };

type Outcome = { ok: true; value: unknown } | { ok: false; error: MemoryError; retriable: boolean };

/** Sends route calls with the client's key and end user, retrying transient failures with jittered backoff. */
export class Transport {
  readonly options: Required<Pick<ClientOptions, 'maxRetries' | 'timeoutMs' | 'retryInitialDelayMs' | 'maxRetryDelayMs'>> & ClientOptions;
  private readonly baseUrl: string;

  constructor(options: ClientOptions) {
    if (!options.baseUrl) throw new TypeError('baseUrl is required, e.g. http://127.0.0.1:8080');
    if (!options.apiKey) throw new TypeError('apiKey is required');
    this.options = { ...DEFAULTS, ...options };
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  async call<T>(route: RouteCall, call: CallOptions = {}): Promise<T> {
    const headers = this.headersFor(route, call);
    const maxRetries = call.maxRetries ?? this.options.maxRetries;
    const url = `${this.baseUrl}${route.path}${route.query?.size ? `?${route.query}` : ''}`;
    for (let attempt = 0; ; attempt++) {
      call.signal?.throwIfAborted();
      const outcome = await this.attempt(url, route, headers, call);
      if (outcome.ok) return outcome.value as T;
      if (attempt > 0 && route.goneOnRetry !== undefined && outcome.error.status === 404 && outcome.error.code === route.goneOnRetry) return undefined as T;
      if (!outcome.retriable || attempt >= maxRetries) throw outcome.error;
      const delayMs = this.retryDelay(attempt, outcome.error);
      if (delayMs === null) throw outcome.error;
      await sleep(delayMs, call.signal);
    }
  }

  private headersFor(route: RouteCall, call: CallOptions): Record<string, string> {
    const headers: Record<string, string> = { ...this.options.headers, authorization: `Bearer ${this.options.apiKey}` };
    const endUserId = call.endUserId ?? this.options.endUserId;
    if (route.endUser !== 'none' && endUserId !== undefined) headers['x-end-user-id'] = endUserId;
    if (route.endUser === 'required' && endUserId === undefined) {
      throw new TypeError(`${route.method} ${route.path} acts for an end user: pass endUserId to the client or to the call`);
    }
    const timeZone = call.timeZone ?? this.options.timeZone;
    if (route.timeZone && timeZone !== undefined) headers['x-end-user-timezone'] = timeZone;
    // One key per logical call, generated before the first attempt: every retry of it sends the same one.
    if (route.retry === 'key') headers['idempotency-key'] = call.idempotencyKey ?? crypto.randomUUID();
    if (route.json !== undefined) headers['content-type'] = 'application/json';
    return headers;
  }

  private async attempt(url: string, route: RouteCall, headers: Record<string, string>, call: CallOptions): Promise<Outcome> {
    const timeoutMs = (call.timeoutMs ?? this.options.timeoutMs) + (route.extraTimeoutMs ?? 0);
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
    const body = route.form ? route.form() : route.json !== undefined ? JSON.stringify(route.json) : undefined;
    const fetchImpl = this.options.fetch ?? globalThis.fetch;
    const retriesAnyFailure = route.retry !== 'unsafe';
    // Every error of a keyed call carries its key, so that the application's own retry can send it again.
    const idempotencyKey = route.retry === 'key' ? headers['idempotency-key']! : null;
    let res: Response;
    let text: string | null = null;
    let blob: Blob | null = null;
    try {
      res = await fetchImpl(url, { method: route.method, headers, ...(body !== undefined ? { body } : {}), signal });
      if (res.ok && route.answer === 'blob') blob = await res.blob();
      else text = await res.text();
    } catch (error) {
      if (call.signal?.aborted) throw call.signal.reason;
      if (timeout.aborted) {
        return { ok: false, retriable: retriesAnyFailure, error: new MemoryTimeoutError({ code: 'SERVICE.TIMEOUT', status: null, message: `${route.method} ${route.path}: no answer within ${timeoutMs} ms`, idempotencyKey, cause: error }) };
      }
      const reason = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
      return { ok: false, retriable: retriesAnyFailure, error: new MemoryConnectionError({ code: 'SERVICE.UNREACHABLE', status: null, message: `the memory service at ${this.baseUrl} could not be reached (${reason})`, idempotencyKey, cause: error }) };
    }
    const requestId = res.headers.get('x-request-id');
    if (!res.ok) {
      const error = apiErrorOf({ status: res.status, text: text ?? '', requestIdHeader: requestId, retryAfterSeconds: retryAfterSeconds(res.headers.get('retry-after')), idempotencyKey });
      return { ok: false, error, retriable: retriableAnswer(route.retry, error) };
    }
    if (route.answer === 'blob') return { ok: true, value: blob };
    if (route.answer === 'text') return { ok: true, value: text };
    if (route.answer === 'none' || !text) return { ok: true, value: undefined };
    const value = parseJson(text);
    if (value === undefined) {
      return { ok: false, retriable: false, error: new MemoryError({ code: 'SERVICE.INVALID_ANSWER', status: res.status, message: `the service answered ${res.status} with something that is not JSON: ${text.slice(0, 200)}`, requestId, idempotencyKey }) };
    }
    return { ok: true, value };
  }

  /** The wait before retry number attempt+1: the service's Retry-After when it gave one, else full-jitter backoff; null when over the limit. */
  private retryDelay(attempt: number, error: MemoryError): number | null {
    const { retryInitialDelayMs, maxRetryDelayMs } = this.options;
    const retryAfter = error instanceof MemoryApiError ? error.retryAfterSeconds : null;
    if (retryAfter !== null) return retryAfter * 1000 <= maxRetryDelayMs ? retryAfter * 1000 : null;
    return Math.round(Math.random() * Math.min(maxRetryDelayMs, retryInitialDelayMs * 2 ** attempt));
  }
}

/**
 * Whether an error answer is worth another attempt. A write without a key only after an answer that says nothing
 * was done: 429 and 503 SERVICE.OVERLOADED (the service's admission refusals); a 503 SERVICE.UNAVAILABLE may come
 * after the write was stored, and a proxy's 502 or 504 says nothing of what happened behind it.
 */
function retriableAnswer(retry: RouteCall['retry'], error: MemoryApiError): boolean {
  if (retry === 'unsafe') return error.status === 429 || (error.status === 503 && error.code === 'SERVICE.OVERLOADED');
  return [429, 502, 503, 504].includes(error.status) || (error.status === 409 && error.code === 'IDEMPOTENCY.IN_PROGRESS');
}

/** Retry-After as seconds: delta-seconds or an HTTP date. */
export function retryAfterSeconds(header: string | null): number | null {
  if (header === null || header.trim() === '') return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** setTimeout that an AbortSignal ends early, rejecting with the signal's reason. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
