import { createServer } from 'node:net';

/**
 * A port on 127.0.0.1 that nothing listens on now (taken, then released): a connection to it is refused at once, as
 * to a stopped engine, and a process told to listen on it gets it.
 */
export async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
