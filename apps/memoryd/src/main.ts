import { startMemoryd } from './memoryd.js';

const service = await startMemoryd({ env: process.env, print: (line) => process.stdout.write(line + '\n') }).catch((error: unknown) => {
  process.stderr.write(`memoryd failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${signal}: stopping (finishing batches in flight)...\n`);
    service.stop().then(() => process.exit(0), (error: unknown) => {
      process.stderr.write(`error while stopping: ${String(error)}\n`);
      process.exit(1);
    });
  });
}
