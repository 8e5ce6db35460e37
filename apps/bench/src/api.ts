import { MemoryServiceError, retry } from '@memory/platform';
import { ApiConnection, type HttpAnswer } from './http-call.js';

export interface JobState {
  status: string;
  memoryIds?: string[];
  error?: { code?: string; reason?: string };
}

export interface SearchHit {
  jobId: string | null;
}

/**
 * The three calls the benchmark makes, as one tenant. Overload answers (429, 503) and dropped connections are
 * retried with backoff; anything else is the benchmark's or the service's bug and is reported as is.
 */
export class BenchApi {
  private readonly connection: ApiConnection;

  constructor(
    readonly baseUrl: string,
    apiKey: string,
  ) {
    this.connection = new ApiConnection(baseUrl, apiKey);
  }

  async ingestText(endUserId: string, content: string, timestamp: string): Promise<string> {
    const body = await this.call('POST', '/v1/memory', endUserId, { source: { type: 'text', content, timestamp } });
    const jobId = (body as { jobId?: unknown } | null)?.jobId;
    if (typeof jobId !== 'string') throw new MemoryServiceError('BENCH.BAD_RESPONSE', `POST /v1/memory answered without a jobId: ${JSON.stringify(body)}`);
    return jobId;
  }

  /** DELETE of a memory (`/v1/memories/{id}`) or an end user (`/v1/users/{id}`): the forgetting job's id. */
  async forget(endUserId: string, path: string): Promise<string> {
    const body = await this.call('DELETE', path, endUserId);
    const jobId = (body as { jobId?: unknown } | null)?.jobId;
    if (typeof jobId !== 'string') throw new MemoryServiceError('BENCH.BAD_RESPONSE', `DELETE ${path} answered without a jobId: ${JSON.stringify(body)}`);
    return jobId;
  }

  /** Memory ids a direct lookup of these identifiers finds. */
  async lookup(endUserId: string, query: string): Promise<string[]> {
    const body = await this.call('POST', '/v1/search', endUserId, { query, strategy: 'direct_lookup', options: { limit: 20 } });
    return ((body as { data?: Array<{ id: string }> } | null)?.data ?? []).map((m) => m.id);
  }

  async job(jobId: string): Promise<JobState> {
    return (await this.call('GET', `/v1/jobs/${encodeURIComponent(jobId)}`, null)) as JobState;
  }

  /** One text search with automatic routing; the time is of the attempt that answered, without backoff waits. */
  async search(endUserId: string, query: string, limit: number, useDynamicScoring: boolean | null): Promise<{ hits: SearchHit[]; ms: number; centroidMode: string | null }> {
    let ms = 0;
    const body = await this.call(
      'POST',
      '/v1/search',
      endUserId,
      { query, options: { limit }, ...(useDynamicScoring === null ? {} : { useDynamicScoring }) },
      (elapsed) => (ms = elapsed),
    );
    const data = (body as { data?: unknown } | null)?.data;
    if (!Array.isArray(data)) throw new MemoryServiceError('BENCH.BAD_RESPONSE', `POST /v1/search answered without a data list: ${JSON.stringify(body).slice(0, 300)}`);
    const hits = data.map((m: { payload?: { job_id?: unknown } }) => ({ jobId: typeof m?.payload?.job_id === 'string' ? m.payload.job_id : null }));
    const centroidMode = (body as { routing?: { centroidMode?: unknown } }).routing?.centroidMode;
    return { hits, ms, centroidMode: typeof centroidMode === 'string' ? centroidMode : null };
  }

  private async call(method: 'GET' | 'POST' | 'DELETE', path: string, endUserId: string | null, body?: unknown, timed?: (ms: number) => void): Promise<unknown> {
    return retry(
      async () => {
        const started = performance.now();
        let res: HttpAnswer;
        try {
          res = await this.connection.call(method, path, endUserId, body);
        } catch (error) {
          throw new MemoryServiceError('BENCH.UNREACHABLE', `${method} ${this.baseUrl}${path}: ${describe(error)}`, { retriable: true, cause: error });
        }
        timed?.(performance.now() - started);
        if (res.status >= 200 && res.status < 300) return res.text ? JSON.parse(res.text) : null;
        throw new MemoryServiceError(`BENCH.HTTP_${res.status}`, `${method} ${path} answered ${res.status}: ${res.text.slice(0, 300)}`, {
          retriable: res.status === 429 || res.status === 503,
        });
      },
      { retries: 8, initialDelayMs: 250, maxDelayMs: 5_000 },
    );
  }
}

function describe(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return (error instanceof Error ? error.message : String(error)) + cause;
}
