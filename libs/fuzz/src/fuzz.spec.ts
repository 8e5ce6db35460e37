import { expect } from 'chai';
import { hostileRequest, KIND_NAMES } from './cases.js';
import { parseResponse, serialize } from './http-wire.js';
import { routesOf, type Route } from './routes.js';
import { judge } from './verdict.js';

const DOCUMENT = {
  openapi: '3.1.0',
  security: [{ bearerAuth: [] }],
  paths: {
    '/health/live': { get: { security: [] } },
    '/v1/memory': { post: { requestBody: { content: { 'application/json': {} } } } },
    '/v1/jobs/{jobId}': { get: { parameters: [{ name: 'jobId', in: 'path' }, { name: 'waitMs', in: 'query' }] } },
    '/v1/ingest/document/upload': { post: { requestBody: { content: { 'multipart/form-data': {} } } } },
  },
};

const answer = (status: number, headers: Record<string, string>, body: string) => ({ kind: 'response' as const, ms: 1, response: { status, headers, body: Buffer.from(body) } });

describe('fuzz', () => {
  it('reads every operation of the OpenAPI document as a route', () => {
    const routes = routesOf(DOCUMENT);
    expect(routes.map((r) => `${r.method} ${r.path}`)).to.deep.equal(['GET /health/live', 'POST /v1/memory', 'GET /v1/jobs/{jobId}', 'POST /v1/ingest/document/upload']);
    expect(routes[0]!.auth).to.equal(false);
    expect(routes[2]).to.deep.include({ auth: true, pathParams: ['jobId'], queryParams: ['waitMs'], bodyType: null });
    expect(routes[3]!.bodyType).to.equal('multipart/form-data');
  });

  it('draws the same request for the same seed and index, and every kind over a run', () => {
    const routes: Route[] = routesOf(DOCUMENT);
    const bytes = (seed: number, index: number) => serialize(hostileRequest(routes, index, seed, 'k'.repeat(20), 'u').request, 'h');
    expect(bytes(7, 123).equals(bytes(7, 123))).to.equal(true);
    expect(bytes(7, 123).equals(bytes(8, 123))).to.equal(false);
    const kinds = new Set<string>();
    for (let i = 0; i < 2_000; i++) {
      const { kind, request } = hostileRequest(routes, i, 7, 'k'.repeat(20), 'u');
      kinds.add(kind);
      expect(request.method).to.be.a('string');
    }
    expect([...kinds].sort()).to.deep.equal([...KIND_NAMES].sort());
  });

  it('reads answers framed by length, by chunks, by the close, and skips 100 Continue', () => {
    const head = 'HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\n';
    expect(parseResponse(Buffer.from(`${head}content-length: 4\r\n\r\nab`), false)).to.equal(null);
    expect(parseResponse(Buffer.from(`${head}content-length: 4\r\n\r\nabcd`), false)?.body.toString()).to.equal('abcd');
    expect(parseResponse(Buffer.from(`${head}transfer-encoding: chunked\r\n\r\n2\r\nab\r\n1\r\nc\r\n0\r\n\r\n`), false)?.body.toString()).to.equal('abc');
    expect(parseResponse(Buffer.from(`${head}\r\nuntil close`), true)?.body.toString()).to.equal('until close');
    expect(parseResponse(Buffer.from(`HTTP/1.1 100 Continue\r\n\r\n${head}content-length: 2\r\n\r\nok`), false)?.status).to.equal(400);
  });

  it('fails a 5xx, a 4xx without the error body, and a whole request left unanswered; not a cut one', () => {
    const json = { 'content-type': 'application/json; charset=utf-8' };
    expect(judge(answer(400, json, '{"error":{"code":"REQUEST.INVALID_JSON","message":"m"}}'), false)).to.deep.equal({ label: '400 REQUEST.INVALID_JSON', failure: null });
    expect(judge(answer(503, json, '{"error":{"code":"SERVICE.UNAVAILABLE","message":"m"}}'), false).failure).to.match(/answered 503/);
    expect(judge(answer(431, {}, ''), false).failure).to.match(/without the/);
    expect(judge(answer(404, json, '{"error":{"code":"not stable","message":"m"}}'), false).failure).to.match(/without the/);
    expect(judge(answer(200, {}, 'ok'), false).failure).to.equal(null);
    expect(judge({ kind: 'closed', ms: 1 }, false).failure).to.match(/closed without an answer/);
    expect(judge({ kind: 'closed', ms: 1 }, true).failure).to.equal(null);
    expect(judge({ kind: 'timeout', ms: 30_000 }, true).failure).to.match(/no answer in/);
  });
});
