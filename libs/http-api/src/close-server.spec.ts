import { expect } from 'chai';
import { Agent, createServer, request } from 'node:http';
import { closeHttpServer } from './close-server.js';

/** One GET on a kept-alive agent: the status, 'cut' for an answer that began and broke off, or the error code when no answer came. */
function get(port: number, agent: Agent): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/', agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('aborted', () => resolve('cut'));
      res.on('error', () => resolve('cut'));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    req.end();
  });
}

describe('closeHttpServer', () => {
  it('ends a kept-alive connection a client keeps sending on, after the answer in flight', async () => {
    // Each answer takes 30 ms, as a search does, so the connection is busy most of the time.
    const server = createServer((_req, res) => setTimeout(() => res.end('ok'), 30));
    server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const answers: Array<number | string> = [];
    let sending = true;
    const client = (async () => {
      while (sending) answers.push(await get(port, agent));
    })();
    await new Promise((resolve) => setTimeout(resolve, 200));

    const started = performance.now();
    await closeHttpServer(server);
    const took = performance.now() - started;
    sending = false;
    await client;
    agent.destroy();

    expect(took, 'closed within a couple of answers').to.be.below(1_000);
    const cut = answers.findIndex((answer) => answer !== 200);
    expect(answers.slice(0, cut === -1 ? undefined : cut).length, 'answered before the close').to.be.greaterThan(2);
    // A request sent on the kept-alive connection just as the server closed it as idle gets a reset and no byte of
    // an answer: HTTP's own race, which a client settles by sending it again (the edge asks the next search app).
    const after = answers.slice(cut === -1 ? answers.length : cut);
    expect(after.filter((answer) => answer !== 'ECONNREFUSED' && answer !== 'ECONNRESET'), 'after the close: refused or reset, never a cut answer').to.deep.equal([]);
  });
});
