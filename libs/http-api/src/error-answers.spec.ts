import { createServer, type Server } from 'node:http';
import { connect, createServer as createTcpServer, type AddressInfo } from 'node:net';
import { expect } from 'chai';
import { createLogger, MemoryServiceError, RequestError } from '@memory/platform';
import { requestErrorOf } from '@memory/testing';
import { createHttpApi } from './app.js';
import { createApiKeyRegistry, hashApiKey } from './auth.js';
import { guardHttpServer } from './client-error.js';
import { errorResponse, UNAVAILABLE_RETRY_AFTER_S } from './error-handler.js';
import { validateId } from './validation.js';

const logger = createLogger({ test: 'error-answers' }, 'silent');
const KEY = 'error-answers-key-0123456789';

/** Sends raw bytes and returns the whole answer as text (the server closes the connection). */
function raw(port: number, bytes: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' }, () => socket.write(bytes));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

function bodyOf(answer: string): { error: { code: string; message: string } } {
  return JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: { code: string; message: string } };
}

describe('error answers', () => {
  it('puts Retry-After on every 503, and only where asked otherwise', () => {
    const outage = errorResponse(new MemoryServiceError('EVENTLOG.UNAVAILABLE', 'broker down', { retriable: true }), logger);
    expect(outage).to.deep.include({ status: 503, headers: { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_S) } });
    expect(outage.body.error.code).to.equal('SERVICE.UNAVAILABLE');
    expect(errorResponse(new RequestError(503, 'SEARCH.UNAVAILABLE', 'search app down'), logger).headers).to.deep.equal({ 'retry-after': String(UNAVAILABLE_RETRY_AFTER_S) });
    expect(errorResponse(new RequestError(409, 'IDEMPOTENCY.IN_PROGRESS', 'wait', { retryAfterSeconds: 1 }), logger).headers).to.deep.equal({ 'retry-after': '1' });
    expect(errorResponse(new RequestError(400, 'REQUEST.INVALID_ID', 'bad id'), logger).headers).to.equal(undefined);
    expect(errorResponse(new MemoryServiceError('EVENTLOG.INVALID_RECORD', 'bug'), logger)).to.deep.include({ status: 500 }).and.not.have.property('headers');
  });

  it('answers a path that is not percent-encoded UTF-8 with 400, not as a failure of ours', () => {
    expect(errorResponse(new URIError('URI malformed'), logger)).to.deep.include({ status: 400 });
    expect(errorResponse(new URIError('URI malformed'), logger).body.error.code).to.equal('REQUEST.INVALID_PATH');
  });

  it('counts a client gone mid-body as its own doing, not a failure of ours', () => {
    const aborted = Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
    expect(errorResponse(aborted, logger)).to.deep.include({ status: 400 });
    expect(errorResponse(aborted, logger).body.error.code).to.equal('REQUEST.ABORTED');
  });

  it('refuses ids no store should see', () => {
    expect(validateId('job_1700000000000_alice@example.com', 'jobId')).to.equal('job_1700000000000_alice@example.com');
    for (const bad of ['x'.repeat(5_000), '', '../etc/passwd', 'a b', 'job\u0000', 'caf\u00e9', undefined, ['a']]) {
      expect(requestErrorOf(() => validateId(bad, 'jobId')), String(bad).slice(0, 20)).to.equal('400 REQUEST.INVALID_ID');
    }
  });

  describe('on a real server', () => {
    let server: Server;
    let port: number;
    let closedPort: number;

    before(async () => {
      // A port that refuses connections: where the edge believes its search app is.
      const probe = createTcpServer();
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
      closedPort = (probe.address() as AddressInfo).port;
      await new Promise<void>((resolve) => probe.close(() => resolve()));
      const api = createHttpApi({
        apiKeys: createApiKeyRegistry(new Map([[hashApiKey(KEY), 'acme']])),
        logger,
        readiness: async () => ({ ready: false, checks: { 'event log': 'connecting' }, lag: {} }),
        search: { proxyTo: [`http://127.0.0.1:${closedPort}`] },
      });
      server = createServer(api);
      guardHttpServer(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('answers a search the search app cannot take with 503 SEARCH.UNAVAILABLE and Retry-After', async () => {
      const res = await fetch(`http://127.0.0.1:${port}/v1/search`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'x-end-user-id': 'ann' }, body: '{"query":"x"}' });
      expect(res.status).to.equal(503);
      expect(res.headers.get('retry-after')).to.equal(String(UNAVAILABLE_RETRY_AFTER_S));
      expect(((await res.json()) as { error: { code: string } }).error.code).to.equal('SEARCH.UNAVAILABLE');
    });

    it('answers a body that is not what its Content-Encoding says with 400, not as a failure of ours', async () => {
      const res = await fetch(`http://127.0.0.1:${port}/v1/search`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-end-user-id': 'ann' }, body: '{"query":"x"}' });
      expect(res.status).to.equal(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).to.equal('REQUEST.UNREADABLE_BODY');
    });

    it('answers readiness while not ready with 503 and Retry-After', async () => {
      const res = await fetch(`http://127.0.0.1:${port}/health/ready`);
      expect(res.status).to.equal(503);
      expect(res.headers.get('retry-after')).to.equal(String(UNAVAILABLE_RETRY_AFTER_S));
    });

    it('answers a header flood with 431 and the error body', async () => {
      const answer = await raw(port, `GET /health/live HTTP/1.1\r\nhost: x\r\nx-big: ${'h'.repeat(20_000)}\r\n\r\n`);
      expect(answer).to.match(/^HTTP\/1\.1 431 /);
      expect(bodyOf(answer).error.code).to.equal('REQUEST.HEADERS_TOO_LARGE');
    });

    it('answers a request Node cannot parse with 400 and the error body', async () => {
      const answer = await raw(port, 'GET /health/live HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\ncontent-length: 3\r\n\r\nzz\r\n');
      expect(answer).to.match(/^HTTP\/1\.1 400 /);
      expect(bodyOf(answer).error.code).to.equal('REQUEST.MALFORMED');
    });

    it('answers an Expect other than 100-continue, and CONNECT, with the error body', async () => {
      const expectation = await raw(port, 'POST /v1/search HTTP/1.1\r\nhost: x\r\nexpect: 200-ok\r\nconnection: close\r\ncontent-length: 2\r\n\r\n{}');
      expect(expectation).to.match(/^HTTP\/1\.1 417 /);
      expect(bodyOf(expectation).error.code).to.equal('REQUEST.EXPECTATION_FAILED');
      const tunnel = await raw(port, 'CONNECT example.com:443 HTTP/1.1\r\nhost: example.com:443\r\n\r\n');
      expect(tunnel).to.match(/^HTTP\/1\.1 405 /);
      expect(bodyOf(tunnel).error.code).to.equal('REQUEST.METHOD_NOT_ALLOWED');
    });
  });
});
