import { expect } from 'chai';
/** Something listening for HTTP: a service process, or the edge of the distributed mode. */
export interface HasUrl {
  url: string;
}

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

export interface Caller {
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Answer>;
  get(path: string, headers?: Record<string, string>): Promise<Answer>;
  delete(path: string, headers?: Record<string, string>): Promise<Answer>;
  patch(path: string, body: unknown, headers?: Record<string, string>): Promise<Answer>;
}

/** HTTP calls as one tenant (API key) and one end user. */
export function caller(service: HasUrl, apiKey: string | null, endUserId: string | null): Caller {
  const headers = (extra: Record<string, string> = {}) => ({
    ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
    ...(endUserId ? { 'x-end-user-id': endUserId } : {}),
    ...extra,
  });
  const send = async (method: string, path: string, body: unknown, extra?: Record<string, string>) => {
    const request = () =>
      fetch(service.url + path, {
        method,
        headers: body === undefined ? headers(extra) : headers({ 'content-type': 'application/json', ...extra }),
        ...(body === undefined ? {} : { body: typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body) }),
      });
    // A GET is safe to send again when a reused keep-alive connection was closed under it, as HTTP clients do.
    const res = await request().catch(async (error: unknown) => {
      if (method !== 'GET') throw error;
      await new Promise((r) => setTimeout(r, 100));
      return request();
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
  };
  return {
    post: (path, body, extra) => send('POST', path, body, extra),
    get: (path, extra) => send('GET', path, undefined, extra),
    delete: (path, extra) => send('DELETE', path, undefined, extra),
    patch: (path, body, extra) => send('PATCH', path, body, extra),
  };
}

/** Polls a job until it is Completed or Failed. */
export async function waitForJob(api: Caller, jobId: string, timeoutMs = 60_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api.get(`/v1/jobs/${jobId}`);
    if (res.status === 200 && (res.body.status === 'Completed' || res.body.status === 'Failed')) return res.body;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${JSON.stringify(res.body)} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until every consumer group has processed everything in the log (readiness reports lag 0 twice in a row). */
export async function waitForDrain(service: HasUrl, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let drainedOnce = false;
  for (;;) {
    const res = await caller(service, null, null).get('/health/ready');
    const lag = (res.body?.lag ?? {}) as Record<string, number>;
    const drained = res.status === 200 && Object.values(lag).every((n) => n === 0);
    if (drained && drainedOnce) return;
    drainedOnce = drained;
    if (Date.now() > deadline) throw new Error(`pipeline not drained after ${timeoutMs} ms: ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** An error answer: this status, the stable code, and a message that says what to do. */
export function expectError(res: { status: number; body: any }, status: number, code: string): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.body?.error?.code, JSON.stringify(res.body)).to.equal(code);
  expect(res.body.error.message).to.be.a('string').and.not.empty;
}
