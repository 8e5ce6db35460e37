import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expectCode } from '@memory/testing';
import { mapRegistryResponse, mapTransportError } from './error-map.js';
import { createConfluentSchemaRegistry } from './index.js';

describe('schema-registry-confluent error mapping', () => {
  const cases: Array<[number, number | undefined, string, boolean]> = [
    [404, 40401, 'REGISTRY.NOT_FOUND', false],
    [404, 40402, 'REGISTRY.NOT_FOUND', false],
    [404, 40403, 'REGISTRY.NOT_FOUND', false],
    [409, 409, 'REGISTRY.INCOMPATIBLE', false],
    [409, undefined, 'REGISTRY.INCOMPATIBLE', false],
    [422, 42201, 'REGISTRY.INVALID_SCHEMA', false],
    [422, 42202, 'REGISTRY.INVALID_VERSION', false],
    [422, 42299, 'REGISTRY.REJECTED', false],
    [401, undefined, 'REGISTRY.UNAUTHORIZED', false],
    [403, 40301, 'REGISTRY.UNAUTHORIZED', false],
    [500, 50001, 'REGISTRY.UNAVAILABLE', true],
    [503, undefined, 'REGISTRY.UNAVAILABLE', true],
    [429, undefined, 'REGISTRY.UNAVAILABLE', true],
    [404, undefined, 'REGISTRY.BAD_RESPONSE', false],
  ];
  for (const [status, errorCode, code, retriable] of cases) {
    it(`maps HTTP ${status} with error_code ${errorCode ?? 'none'} to ${code}${retriable ? ' (retriable)' : ''}`, () => {
      const error = mapRegistryResponse({ status, body: errorCode === undefined ? undefined : { error_code: errorCode, message: 'm' } }, 'doing it');
      expect(error).to.include({ code, retriable });
      expect(error.message).to.match(/^doing it: /);
      expect(error.details).to.include({ status });
    });
  }

  it('maps a timeout and a refused connection to retriable REGISTRY.UNAVAILABLE', () => {
    const timeout = Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' });
    expect(mapTransportError(timeout, 'x')).to.include({ code: 'REGISTRY.UNAVAILABLE', retriable: true });
    const refused = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }) });
    const mapped = mapTransportError(refused, 'x');
    expect(mapped).to.include({ code: 'REGISTRY.UNAVAILABLE', retriable: true });
    expect(mapped.details).to.deep.equal({ networkCode: 'ECONNREFUSED' });
  });
});

describe('schema-registry-confluent against servers that are not a registry', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
    server = createServer(handler);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('fails retriably when nothing listens', async () => {
    const url = await serve(() => undefined);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    const registry = await createConfluentSchemaRegistry({ url });
    const error = await expectCode(registry.subjects(), 'REGISTRY.UNAVAILABLE');
    expect((error as unknown as { retriable: boolean }).retriable).to.equal(true);
  });

  it('says the URL looks wrong when a web server answers with HTML', async () => {
    const url = await serve((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>'));
    const registry = await createConfluentSchemaRegistry({ url });
    const error = await expectCode(registry.subjects(), 'REGISTRY.BAD_RESPONSE');
    expect(error.message).to.contain('registry URL');
  });

  it('times out a silent server and aborts in-flight calls on close', async () => {
    const url = await serve(() => undefined); // never answers
    const slow = await createConfluentSchemaRegistry({ url, requestTimeoutMs: 200 });
    await expectCode(slow.subjects(), 'REGISTRY.UNAVAILABLE');
    const closing = await createConfluentSchemaRegistry({ url });
    const pending = closing.versions('s');
    await closing.close();
    await expectCode(pending, 'REGISTRY.CLOSED');
    await expectCode(closing.subjects(), 'REGISTRY.CLOSED');
  });

  it('validates options and schemas before sending anything', async () => {
    await expectCode(createConfluentSchemaRegistry({ url: 'not a url' }), 'CONFIG.INVALID');
    await expectCode(createConfluentSchemaRegistry({ url: 'http://x', username: 'u' }), 'CONFIG.INVALID');
    await expectCode(createConfluentSchemaRegistry({ url: 'http://x', compatibility: 'SIDEWAYS' as never }), 'CONFIG.INVALID');
    // Port 9 (discard) on loopback: nothing is sent, since the schema is refused first.
    const registry = await createConfluentSchemaRegistry({ url: 'http://127.0.0.1:9' });
    await expectCode(registry.register('s', '{"type":"nosuchtype"}'), 'REGISTRY.INVALID_SCHEMA');
    await expectCode(registry.register('', '"string"'), 'REGISTRY.INVALID_SUBJECT');
    await expectCode(registry.schemaByVersion('s', 0), 'REGISTRY.INVALID_VERSION');
  });
});
