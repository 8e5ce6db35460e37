import { ApiConnection } from './http-call.js';

/**
 * Single timed requests for the performance benchmark. Unlike BenchApi, nothing is retried: a 429 or 503 is a figure
 * (a refused request) and a retry would hide it and add its backoff to the latency. Connections are kept alive, so the
 * cost measured is the request, not a TCP handshake.
 */
export interface TimedResponse {
  status: number;
  ms: number;
  body: unknown;
}

export interface SearchOptions {
  limit?: number;
  strategy?: 'direct_lookup' | 'centroid_aware' | 'entity_anchor' | 'temporal_range';
}

export class PerfClient {
  private readonly connection: ApiConnection;

  constructor(baseUrl: string, apiKey: string) {
    this.connection = new ApiConnection(baseUrl, apiKey);
  }

  async ingest(endUserId: string, content: string): Promise<TimedResponse & { jobId: string | null }> {
    const res = await this.request('POST', '/v1/memory', endUserId, { source: { type: 'text', content, timestamp: new Date().toISOString() } });
    const jobId = (res.body as { jobId?: unknown } | null)?.jobId;
    return { ...res, jobId: res.status === 202 && typeof jobId === 'string' ? jobId : null };
  }

  /** PATCH /v1/memories/{id} with new content: the upd_job_ id on a 202. */
  async updateContent(endUserId: string, memoryId: string, content: string): Promise<TimedResponse & { jobId: string | null }> {
    const res = await this.request('PATCH', `/v1/memories/${encodeURIComponent(memoryId)}`, endUserId, { content });
    const jobId = (res.body as { jobId?: unknown } | null)?.jobId;
    return { ...res, jobId: res.status === 202 && typeof jobId === 'string' ? jobId : null };
  }

  async search(endUserId: string, query: string, options: SearchOptions = {}): Promise<TimedResponse & { jobIds: string[] }> {
    const res = await this.request('POST', '/v1/search', endUserId, {
      query,
      options: { limit: options.limit ?? 10 },
      ...(options.strategy ? { strategy: options.strategy } : {}),
    });
    const data = (res.body as { data?: unknown } | null)?.data;
    const jobIds = Array.isArray(data)
      ? data.map((m: { payload?: { job_id?: unknown } }) => m?.payload?.job_id).filter((id): id is string => typeof id === 'string')
      : [];
    return { ...res, jobIds };
  }

  async request(method: 'GET' | 'POST' | 'PATCH', path: string, endUserId: string | null, body?: unknown): Promise<TimedResponse> {
    const started = performance.now();
    const { status, text } = await this.connection.call(method, path, endUserId, body);
    const ms = performance.now() - started;
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    return { status, ms, body: parsed };
  }
}
