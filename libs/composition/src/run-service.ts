import { startService, type Roles } from './service.js';

/**
 * The whole of an app's main: start the roles, print to stdout, and on SIGINT/SIGTERM finish the batches in
 * flight, close the engines and exit. A start failure exits 1 with the reason.
 */
export async function runService(roles: Roles): Promise<void> {
  const print = (line: string) => process.stdout.write(line + '\n');
  const service = await startService(roles, { env: process.env, print }).catch((error: unknown) => {
    process.stderr.write(`${roles.name} failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });

  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      print(`${signal}: stopping ${roles.name} (finishing batches in flight)...`);
      service.stop().then(
        () => process.exit(0),
        (error: unknown) => {
          process.stderr.write(`error while stopping: ${String(error)}\n`);
          process.exit(1);
        },
      );
    });
  }
}
