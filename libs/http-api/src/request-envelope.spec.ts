import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { clientGone } from '@memory/platform';
import { requestEnvelope, routeTemplate } from './request-envelope.js';

describe('routeTemplate (the route label of the HTTP metrics)', () => {
  it('names a request by its documented route, never by its raw path', () => {
    expect(routeTemplate('POST', '/v1/memory')).to.equal('/v1/memory');
    expect(routeTemplate('GET', '/v1/jobs/job_1_alice?waitMs=100')).to.equal('/v1/jobs/{jobId}');
    expect(routeTemplate('HEAD', '/v1/jobs/job_1_alice')).to.equal('/v1/jobs/{jobId}');
    expect(routeTemplate('GET', '/v1/memories/mem_1/history')).to.equal('/v1/memories/{id}/history');
    expect(routeTemplate('PATCH', '/v1/memories/mem_1')).to.equal('/v1/memories/{id}');
    expect(routeTemplate('GET', '/v1/memory/image/img_1/preview')).to.equal('/v1/memory/image/{jobId}/preview');
    expect(routeTemplate('GET', `/v1/jobs/${'x'.repeat(5000)}`), 'however long the id').to.equal('/v1/jobs/{jobId}');
    expect(routeTemplate('GET', '/metrics')).to.equal('/metrics');
    expect(routeTemplate('POST', '/mcp')).to.equal('/mcp');
  });

  it('counts any other path or method as unmatched, so a scan adds no series', () => {
    for (const [method, url] of [['GET', '/v1/jobs/a/b'], ['GET', '/../../etc/passwd'], ['PUT', '/v1/memory'], ['GET', '/v1/memories/'], [undefined, undefined]] as const) {
      expect(routeTemplate(method, url), `${method} ${url?.slice(0, 40)}`).to.equal('unmatched');
    }
  });
});

describe('requestEnvelope', () => {
  it('tells the code serving a request that its client closed the connection before the answer', async () => {
    let release!: () => void;
    let closed = false;
    const seen: boolean[] = [];
    const server = createServer(
      requestEnvelope(async (_req, res) => {
        seen.push(clientGone());
        res.once('close', () => (closed = true));
        // Still serving the request after an await, as a route waiting on a store is.
        await new Promise<void>((resolve) => (release = resolve));
        seen.push(clientGone());
        res.end();
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const leaving = new AbortController();
      const request = fetch(`http://127.0.0.1:${port}/v1/memory`, { method: 'POST', signal: leaving.signal }).catch(() => 'left');
      await waitUntil(() => seen.length === 1);
      leaving.abort();
      expect(await request).to.equal('left');
      await waitUntil(() => closed);
      release();
      await waitUntil(() => seen.length === 2);
      expect(seen).to.deep.equal([false, true]);
    } finally {
      server.close();
    }
  });
});

async function waitUntil(done: () => boolean): Promise<void> {
  for (let tries = 0; !done(); tries++) {
    if (tries > 200) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
