/** What the valid traffic interleaved with the fuzz saw: it must all complete as if nothing else were going on. */
export interface ValidTrafficReport {
  ingests: number;
  accepted: number;
  completed: number;
  searches: number;
  searchesOk: number;
  failures: string[];
}

/**
 * Ordinary requests of one end user, sent while the fuzz runs: text ingestions (each followed to Completed) and
 * searches. A hostile request that hurt the service shows up here as a refused ingestion, a failed search or a job
 * that never completes.
 */
export class ValidTraffic {
  private readonly jobs: string[] = [];
  private readonly pending: Array<Promise<void>> = [];
  readonly report: ValidTrafficReport = { ingests: 0, accepted: 0, completed: 0, searches: 0, searchesOk: 0, failures: [] };

  constructor(
    private readonly url: string,
    private readonly apiKey: string,
    private readonly endUser: string,
  ) {}

  private headers() {
    return { authorization: `Bearer ${this.apiKey}`, 'x-end-user-id': this.endUser, 'content-type': 'application/json' };
  }

  /** One ingestion and one search, in the background. */
  round(n: number): void {
    this.pending.push(this.ingest(n), this.search(n));
  }

  private async ingest(n: number): Promise<void> {
    this.report.ingests++;
    try {
      const res = await fetch(`${this.url}/v1/memory`, { method: 'POST', headers: this.headers(), body: JSON.stringify({ source: { type: 'text', content: `valid traffic note ${n}: the fuzz run keeps serving ordinary requests` } }), signal: AbortSignal.timeout(30_000) });
      const body = (await res.json()) as { jobId?: string };
      if (res.status === 202 && body.jobId) {
        this.report.accepted++;
        this.jobs.push(body.jobId);
      } else this.report.failures.push(`ingest ${n}: answered ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
    } catch (error) {
      this.report.failures.push(`ingest ${n}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async search(n: number): Promise<void> {
    this.report.searches++;
    try {
      const res = await fetch(`${this.url}/v1/search`, { method: 'POST', headers: this.headers(), body: JSON.stringify({ query: 'what does the fuzz run keep serving', options: { limit: 3 } }), signal: AbortSignal.timeout(30_000) });
      await res.arrayBuffer();
      if (res.status === 200) this.report.searchesOk++;
      else this.report.failures.push(`search ${n}: answered ${res.status}`);
    } catch (error) {
      this.report.failures.push(`search ${n}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Waits for the requests in flight, then for every accepted job to reach Completed (within `withinMs` in all). */
  async settle(withinMs: number): Promise<ValidTrafficReport> {
    await Promise.all(this.pending);
    const deadline = Date.now() + withinMs;
    for (const jobId of this.jobs) {
      let state = 'unknown';
      while (Date.now() < deadline) {
        try {
          const res = await fetch(`${this.url}/v1/jobs/${encodeURIComponent(jobId)}?waitMs=${Math.min(10_000, Math.max(0, deadline - Date.now()))}`, { headers: this.headers(), signal: AbortSignal.timeout(40_000) });
          state = res.status === 200 ? ((await res.json()) as { status: string }).status : `HTTP ${res.status}`;
        } catch (error) {
          state = error instanceof Error ? error.message : String(error);
        }
        if (state === 'Completed' || state === 'Failed') break;
      }
      if (state === 'Completed') this.report.completed++;
      else this.report.failures.push(`job ${jobId} ended ${state}, not Completed`);
    }
    return this.report;
  }
}
