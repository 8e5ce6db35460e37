import { expect } from 'chai';
import { ArangoError, FetchFailedError, HttpError, NetworkError, ResponseTimeoutError } from 'arangojs/errors';
import { MemoryServiceError } from '@memory/platform';
import { graphError } from './errors.js';

// The error objects arangojs itself throws, built as it builds them from a server's error body.
const arango = (errorNum: number, code: number, errorMessage = 'server said no') => new ArangoError({ errorNum, errorMessage, code });
const request = () => new Request('http://127.0.0.1:8529/_db/memory/_api/cursor', { method: 'POST' });
const http = (status: number) => new HttpError(Object.assign(new Response('plain text', { status }), { request: request() }));

describe('graph-arangodb errors', () => {
  const cases: Array<[string, unknown, string, boolean]> = [
    ['write-write conflict (1200)', arango(1200, 409, 'write-write conflict'), 'GRAPH.CONFLICT', true],
    ['unique constraint from a concurrent insert (1210)', arango(1210, 409), 'GRAPH.CONFLICT', true],
    ['service unavailable (503)', arango(503, 503), 'GRAPH.UNAVAILABLE', true],
    ['cluster backend unreachable (1478)', arango(1478, 503), 'GRAPH.UNAVAILABLE', true],
    ['lock timeout (18)', arango(18, 500), 'GRAPH.UNAVAILABLE', true],
    ['query killed or past maxRuntime (1500)', arango(1500, 410), 'GRAPH.UNAVAILABLE', true],
    ['wrong credentials (401)', arango(401, 401, 'not authorized'), 'GRAPH.NO_ACCESS', false],
    ['missing permission (11)', arango(11, 403), 'GRAPH.NO_ACCESS', false],
    ['database gone (1228)', arango(1228, 404), 'GRAPH.NOT_PROVISIONED', false],
    ['collection dropped under the store (1203)', arango(1203, 404), 'GRAPH.NOT_PROVISIONED', false],
    ['disk full (1104)', arango(1104, 500), 'GRAPH.DISK_FULL', false],
    ['AQL parse error (1501)', arango(1501, 400), 'GRAPH.QUERY', false],
    ['bad bind parameter (1552)', arango(1552, 400), 'GRAPH.QUERY', false],
    ['any other bad request (10)', arango(10, 400), 'GRAPH.REJECTED', false],
    ['an internal server error (4)', arango(4, 500), 'GRAPH.UNAVAILABLE', true],
    ['HTTP 502 from a proxy', http(502), 'GRAPH.UNAVAILABLE', true],
    ['HTTP 401 without an ArangoDB body', http(401), 'GRAPH.NO_ACCESS', false],
    ['HTTP 404 from something that is not ArangoDB', http(404), 'GRAPH.REJECTED', false],
    ['connection refused', new FetchFailedError(undefined, request(), { cause: new TypeError('fetch failed') }), 'GRAPH.UNAVAILABLE', true],
    ['response timeout', new ResponseTimeoutError(undefined, request()), 'GRAPH.UNAVAILABLE', true],
    ['other network failure', new NetworkError('socket hang up', request()), 'GRAPH.UNAVAILABLE', true],
    ['a bare Node system error', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 'GRAPH.UNAVAILABLE', true],
    ['something unknown', new Error('what'), 'GRAPH.STORAGE', true],
  ];

  for (const [what, cause, code, retriable] of cases) {
    it(`maps ${what} to ${code}${retriable ? ', retriable' : ''}`, () => {
      const error = graphError('upsert', cause);
      expect(error).to.be.instanceOf(MemoryServiceError);
      expect(error.code).to.equal(code);
      expect(error.retriable).to.equal(retriable);
      expect(error.message).to.match(/^graph store upsert failed: /);
      expect(error.cause).to.equal(cause);
    });
  }

  it('keeps the ArangoDB error number and status for the logs', () => {
    expect(graphError('neighbours', arango(1200, 409)).details).to.deep.equal({ errorNum: 1200, status: 409 });
  });

  it('passes a MemoryServiceError through unchanged', () => {
    const original = new MemoryServiceError('GRAPH.INVALID_ARGUMENT', 'bad');
    expect(graphError('upsert', original)).to.equal(original);
  });
});
