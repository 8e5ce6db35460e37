import { expect } from 'chai';
import express from 'express';
import { createServer, type Server } from 'node:http';
import { createLogger } from '@memory/platform';
import { unusedPort } from '@memory/testing';
import { errorHandler } from '../error-handler.js';
import { SEARCH_APP_PAUSE_MS, SearchRotation, searchProxyRoutes } from './search-proxy.js';

/** A stand-in search app: a real HTTP server that answers every search with its own name. */
async function searchApp(name: string, port = 0): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ data: [], servedBy: name }));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe('SearchRotation (the edge taking several search apps in turn)', () => {
  it('takes the apps in turn', () => {
    const rotation = new SearchRotation(['a', 'b', 'c']);
    expect([0, 1, 2, 3].map(() => rotation.order()[0])).to.deep.equal(['a', 'b', 'c', 'a']);
    expect(rotation.order()).to.deep.equal(['b', 'c', 'a']);
  });

  it('passes over an app that gave no answer until its pause ends, then tries it again', () => {
    let now = 1_000;
    const rotation = new SearchRotation(['a', 'b'], () => now);
    rotation.failed('a');
    expect(rotation.order(), 'its turn').to.deep.equal(['b', 'a']);
    expect(rotation.order()).to.deep.equal(['b', 'a']);
    now += SEARCH_APP_PAUSE_MS + 1;
    expect(rotation.order()).to.deep.equal(['a', 'b']);
  });

  it('refuses an empty list', () => {
    expect(() => new SearchRotation([])).to.throw(RangeError);
  });
});

describe('searchProxyRoutes with several search apps', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map(close));
  });

  async function edge(urls: string[]): Promise<string> {
    const app = express();
    app.use(searchProxyRoutes(urls));
    app.use(errorHandler(createLogger({}, 'silent')));
    const server = createServer(app);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  }

  const search = async (edgeUrl: string) => {
    const response = await fetch(`${edgeUrl}/v1/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"q"}' });
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as { servedBy?: string; error?: { code: string } } };
  };

  it('shares searches between the apps, and an app that joins later is taken once it answers', async () => {
    const first = await searchApp('first');
    servers.push(first.server);
    const laterPort = await unusedPort();
    const edgeUrl = await edge([first.url, `http://127.0.0.1:${laterPort}`]);

    const before = await Promise.all([0, 1, 2, 3].map(() => search(edgeUrl)));
    expect(before.map((reply) => reply.status)).to.deep.equal([200, 200, 200, 200]);
    expect(new Set(before.map((reply) => reply.body.servedBy)), 'the absent app costs no answer').to.deep.equal(new Set(['first']));

    const later = await searchApp('later', laterPort);
    servers.push(later.server);
    await new Promise((resolve) => setTimeout(resolve, SEARCH_APP_PAUSE_MS + 50));
    const after = [];
    for (let i = 0; i < 4; i++) after.push(await search(edgeUrl));
    expect(after.map((reply) => reply.body.servedBy).sort()).to.deep.equal(['first', 'first', 'later', 'later']);
  });

  it('keeps its connection to a search app open between searches, and asks again on a new one when a kept one was closed under it', async () => {
    // The app answers the first request of each connection and drops the connection at the second, as a server
    // closing an idle connection at the moment it is reused would.
    const connections: number[] = [];
    const server = createServer((req, res) => {
      const socket = req.socket as typeof req.socket & { served?: number };
      socket.served = (socket.served ?? 0) + 1;
      if (socket.served === 1) connections.push(1);
      req.resume();
      req.on('end', () => {
        if (socket.served === 2 && connections.length === 1) return socket.destroy();
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ data: [], servedBy: 'only' }));
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const edgeUrl = await edge([`http://127.0.0.1:${(server.address() as { port: number }).port}`]);

    const replies = [];
    for (let i = 0; i < 4; i++) replies.push(await search(edgeUrl));
    expect(replies.map((reply) => reply.status), 'the dropped connection costs the client nothing').to.deep.equal([200, 200, 200, 200]);
    expect(connections.length, 'one connection, then one more after the drop').to.equal(2);
  });

  it('answers 503 SEARCH.UNAVAILABLE with Retry-After when no app answers', async () => {
    const edgeUrl = await edge([`http://127.0.0.1:${await unusedPort()}`, `http://127.0.0.1:${await unusedPort()}`]);
    const reply = await search(edgeUrl);
    expect(reply.status).to.equal(503);
    expect(reply.body.error?.code).to.equal('SEARCH.UNAVAILABLE');
    expect(reply.retryAfter).to.equal('5');
  });
});
