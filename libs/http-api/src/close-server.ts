import type { Server, ServerResponse } from 'node:http';

/**
 * Stops taking connections and ends the kept-alive ones: idle ones at once, busy ones after their answer, which
 * says `Connection: close`. server.close() alone waits for every connection to end, so a client that keeps sending
 * on its connection (the edge, to a search app it takes in turn) would hold a stopping process open indefinitely.
 */
export function closeHttpServer(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  server.on('request', (_req, res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('connection', 'close');
  });
  server.closeIdleConnections();
  return closed;
}
