import { Agent, request } from 'node:http';
import { Agent as TlsAgent, request as tlsRequest } from 'node:https';

export interface HttpAnswer {
  status: number;
  text: string;
  /** The answer's Server-Timing header (where the service says its time went), when it sent one. */
  serverTiming?: string;
}

/**
 * The one way the benchmarks call the API: Bearer key, the end user's header, a JSON body when there is one, over
 * kept-alive connections. node:http rather than fetch: the client shares the 2 cores with the service it measures,
 * and fetch cost it ~1 ms of CPU per ingest (3.0 s for 3,000), which the pipeline's figures paid for. Idle kept-alive
 * sockets do not hold the process open (the agent unrefs them).
 */
export class ApiConnection {
  private readonly url: URL;
  private readonly agent: Agent;

  constructor(
    baseUrl: string,
    private readonly apiKey: string,
  ) {
    this.url = new URL(baseUrl);
    this.agent = this.url.protocol === 'https:' ? new TlsAgent({ keepAlive: true }) : new Agent({ keepAlive: true });
  }

  call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, endUserId: string | null, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<HttpAnswer> {
    const payload = body === undefined ? null : Buffer.from(JSON.stringify(body));
    const headers: Record<string, string | number> = { ...extraHeaders, authorization: `Bearer ${this.apiKey}` };
    if (endUserId) headers['x-end-user-id'] = endUserId;
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = payload.length;
    }
    const send = this.url.protocol === 'https:' ? tlsRequest : request;
    return new Promise((resolve, reject) => {
      const req = send({ hostname: this.url.hostname, port: this.url.port, path: this.url.pathname.replace(/\/$/, '') + path, method, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        const serverTiming = res.headers['server-timing'];
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), ...(typeof serverTiming === 'string' ? { serverTiming } : {}) }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload ?? undefined);
    });
  }
}
