import { expect } from 'chai';
import {
  ConflictError, MemoryApiError, MemoryClient, MemoryConnectionError, MemoryError, MemoryTimeoutError, NotFoundError, RateLimitError,
  ServiceUnavailableError, type ClientOptions,
} from './index.js';

/**
 * The client's own retry, key and header logic against a scripted network: each planned step answers one attempt
 * (a Response, a dropped connection, or no answer at all), and every request sent is kept for the assertions.
 */
type Step = Response | 'drop' | 'hang';

function scriptedNetwork(...plan: Step[]) {
  const sent: Array<{ method: string; url: string; headers: Headers; body: BodyInit | null | undefined }> = [];
  const fetch = async (url: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    sent.push({ method: init.method ?? 'GET', url: String(url), headers: new Headers(init.headers), body: init.body });
    const step = plan.shift();
    if (step === undefined) throw new Error(`no answer planned for request ${sent.length}`);
    if (step === 'drop') throw new TypeError('fetch failed', { cause: new Error('socket hang up') });
    if (step === 'hang') {
      return new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(init.signal!.reason), { once: true }));
    }
    return step;
  };
  return { fetch: fetch as typeof globalThis.fetch, sent, keys: () => sent.map((request) => request.headers.get('idempotency-key')) };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const serviceError = (status: number, code: string, headers: Record<string, string> = {}) => json(status, { error: { code, message: `${code} from the script`, requestId: `req-${code}` } }, headers);
const accepted = () => json(202, { status: 'Accepted', jobId: 'job_1_alice' });
const webhookCreated = () => json(201, { id: 'wh_1', url: 'https://example.com/hook', events: ['job.completed'], createdAt: '2026-01-01T00:00:00.000Z', secret: 'whsec_AAAA' });
const proxyPage = (status: number, text: string) => new Response(`<html><body><h1>${status} ${text}</h1></body></html>`, { status, headers: { 'content-type': 'text/html' } });

function clientOn(network: ReturnType<typeof scriptedNetwork>, extra: Partial<ClientOptions> = {}): MemoryClient {
  return new MemoryClient({ baseUrl: 'http://memory.test', apiKey: 'key', endUserId: 'alice', retryInitialDelayMs: 1, fetch: network.fetch, ...extra });
}

async function rejectionOf(call: Promise<unknown>): Promise<MemoryError> {
  const error = await call.then(() => null, (caught: unknown) => caught);
  expect(error).to.be.instanceOf(MemoryError);
  return error as MemoryError;
}

const webhook = { url: 'https://example.com/hook', events: ['job.completed' as const] };

describe('MemoryClient retries and errors (against a scripted network)', () => {
  describe('a keyed call that finally fails hands back its Idempotency-Key, so the application can retry with it', () => {
    const cases: Array<[string, Step[], new (...args: never[]) => MemoryError, Partial<ClientOptions>]> = [
      ['no answer in time', ['hang', 'hang', 'hang'], MemoryTimeoutError, { timeoutMs: 20 }],
      ['a dropped connection', ['drop', 'drop', 'drop'], MemoryConnectionError, {}],
      ['503 SERVICE.UNAVAILABLE (may have been accepted)', [1, 2, 3].map(() => serviceError(503, 'SERVICE.UNAVAILABLE')), ServiceUnavailableError, {}],
      ['409 IDEMPOTENCY.IN_PROGRESS', [1, 2, 3].map(() => serviceError(409, 'IDEMPOTENCY.IN_PROGRESS')), ConflictError, {}],
    ];
    for (const [what, plan, type, extra] of cases) {
      it(`after ${what}`, async () => {
        const network = scriptedNetwork(...plan);
        const error = await rejectionOf(clientOn(network, extra).addMemory('Alice keeps bees'));
        expect(error).to.be.instanceOf(type);
        expect(network.sent).to.have.length(3);
        const [key] = network.keys();
        expect(key).to.match(/^[0-9a-f-]{36}$/);
        expect(network.keys(), 'one key for every attempt').to.deep.equal([key, key, key]);
        expect(error.idempotencyKey).to.equal(key);
      });
    }

    it('the caller\'s own key, on the error as on every attempt; none on an error of a route without keys', async () => {
      const keyed = scriptedNetwork('drop', 'drop');
      const error = await rejectionOf(clientOn(keyed, { maxRetries: 1 }).deleteMemory('mem_job_1_alice_0', { idempotencyKey: 'my-own-key' }));
      expect(keyed.keys()).to.deep.equal(['my-own-key', 'my-own-key']);
      expect(error.idempotencyKey).to.equal('my-own-key');

      const unkeyed = scriptedNetwork('drop');
      const read = await rejectionOf(clientOn(unkeyed, { maxRetries: 0 }).getLiveness());
      expect(unkeyed.keys()).to.deep.equal([null]);
      expect(read.idempotencyKey).to.equal(null);
    });
  });

  describe('a write without a key (createWebhook) is retried only on an answer that says nothing was done', () => {
    it('not after 503 SERVICE.UNAVAILABLE, which may come after the endpoint was stored', async () => {
      const network = scriptedNetwork(serviceError(503, 'SERVICE.UNAVAILABLE'), webhookCreated());
      const error = await rejectionOf(clientOn(network).createWebhook(webhook));
      expect(error).to.be.instanceOf(ServiceUnavailableError);
      expect(network.sent).to.have.length(1);
    });

    it('not after a proxy\'s 502 or 504, nor a 503 without the service\'s body', async () => {
      for (const answer of [proxyPage(502, 'Bad Gateway'), proxyPage(504, 'Gateway Timeout'), proxyPage(503, 'Service Unavailable')]) {
        const network = scriptedNetwork(answer, webhookCreated());
        const error = await rejectionOf(clientOn(network).createWebhook(webhook));
        expect(error.status).to.equal(answer.status);
        expect(network.sent, String(answer.status)).to.have.length(1);
      }
    });

    it('after 503 SERVICE.OVERLOADED and 429, which say nothing was accepted', async () => {
      const network = scriptedNetwork(serviceError(503, 'SERVICE.OVERLOADED'), serviceError(429, 'RATE.LIMITED'), webhookCreated());
      expect((await clientOn(network).createWebhook(webhook)).id).to.equal('wh_1');
      expect(network.sent).to.have.length(3);
    });
  });

  describe('a proxy\'s 502 and 504', () => {
    it('are retried on a keyed write, with its one key', async () => {
      const network = scriptedNetwork(proxyPage(502, 'Bad Gateway'), proxyPage(504, 'Gateway Timeout'), accepted());
      expect((await clientOn(network).addMemory('Alice keeps bees')).jobId).to.equal('job_1_alice');
      expect(new Set(network.keys()).size).to.equal(1);
      expect(network.sent).to.have.length(3);
    });

    it('are retried on a read', async () => {
      const network = scriptedNetwork(proxyPage(504, 'Gateway Timeout'), json(200, { status: 'ok' }));
      expect(await clientOn(network).getLiveness()).to.deep.equal({ status: 'ok' });
      expect(network.sent).to.have.length(2);
    });
  });

  describe('an error answer', () => {
    it('that is not the service\'s JSON keeps what it said in the message', async () => {
      const network = scriptedNetwork(proxyPage(502, 'Bad Gateway'));
      const error = await rejectionOf(clientOn(network, { maxRetries: 0 }).getLiveness());
      expect(error).to.be.instanceOf(MemoryApiError);
      expect([error.status, error.code]).to.deep.equal([502, 'HTTP.502']);
      expect(error.message).to.include('502 Bad Gateway').and.not.include('without an error body');
    });

    it('takes its request id from the body when the header is missing, and from the header when both say', async () => {
      const bodyOnly = scriptedNetwork(serviceError(404, 'MEMORY.NOT_FOUND'));
      expect((await rejectionOf(clientOn(bodyOnly).getMemory('mem_x'))).requestId).to.equal('req-MEMORY.NOT_FOUND');
      const both = scriptedNetwork(serviceError(404, 'MEMORY.NOT_FOUND', { 'x-request-id': 'req-header' }));
      expect((await rejectionOf(clientOn(both).getMemory('mem_x'))).requestId).to.equal('req-header');
    });
  });

  describe('deleteWebhook', () => {
    it('resolves when a retry after a lost answer hears 404 WEBHOOK.NOT_FOUND: the first attempt deleted it', async () => {
      const network = scriptedNetwork('drop', serviceError(404, 'WEBHOOK.NOT_FOUND'));
      expect(await clientOn(network).deleteWebhook('wh_1')).to.equal(undefined);
      expect(network.sent.map((request) => request.method)).to.deep.equal(['DELETE', 'DELETE']);
    });

    it('still rejects with NotFoundError when the first attempt hears it', async () => {
      const network = scriptedNetwork(serviceError(404, 'WEBHOOK.NOT_FOUND'));
      expect(await rejectionOf(clientOn(network).deleteWebhook('wh_1'))).to.be.instanceOf(NotFoundError);
    });

    it('rejects when a retry hears another 404 (a proxy\'s, a route it does not know)', async () => {
      const network = scriptedNetwork('drop', serviceError(404, 'ROUTE.NOT_FOUND'));
      expect(await rejectionOf(clientOn(network).deleteWebhook('wh_1'))).to.be.instanceOf(NotFoundError);
    });
  });

  it('eraseEndUser sends the erased end user as x-end-user-id, whatever the client\'s default', async () => {
    const network = scriptedNetwork(json(202, { status: 'Accepted', jobId: 'del_job_1_bob' }));
    await clientOn(network).eraseEndUser('bob');
    expect(network.sent[0]!.url).to.equal('http://memory.test/v1/users/bob');
    expect(network.sent[0]!.headers.get('x-end-user-id')).to.equal('bob');
  });

  it('uploadDocument sends the file as application/pdf whatever type its Blob has', async () => {
    const network = scriptedNetwork(accepted(), accepted());
    const client = clientOn(network);
    await client.uploadDocument({ file: new Blob(['%PDF-1.4'], { type: 'application/octet-stream' }) });
    await client.uploadDocument({ file: new Blob(['%PDF-1.4']) });
    for (const request of network.sent) expect(((request.body as FormData).get('file') as File).type).to.equal('application/pdf');
  });

  it('a 429 still rejects with RateLimitError once the retries are spent', async () => {
    const network = scriptedNetwork(serviceError(429, 'RATE.LIMITED'), serviceError(429, 'RATE.LIMITED'));
    expect(await rejectionOf(clientOn(network, { maxRetries: 1 }).addMemory('x'))).to.be.instanceOf(RateLimitError);
    expect(network.sent).to.have.length(2);
  });
});
