import { apiRequest } from './request-init.js';

/**
 * Single timed requests for the performance benchmark. Unlike BenchApi, nothing is retried: a 429 or 503 is a figure
 * (a refused request) and a retry would hide it and add its backoff to the latency. Node's fetch keeps connections
 * alive and pools them per origin, so the cost measured is the request, not a TCP handshake.
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
  constructor(
    readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  async ingest(endUserId: string, content: string): Promise<TimedResponse & { jobId: string | null }> {
    const res = await this.request('POST', '/v1/memory', endUserId, { source: { type: 'text', content, timestamp: new Date().toISOString() } });
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

  async request(method: 'GET' | 'POST', path: string, endUserId: string | null, body?: unknown): Promise<TimedResponse> {
    const started = performance.now();
    const res = await fetch(this.baseUrl + path, apiRequest(this.apiKey, method, endUserId, body));
    const text = await res.text();
    const ms = performance.now() - started;
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    return { status: res.status, ms, body: parsed };
  }
}
