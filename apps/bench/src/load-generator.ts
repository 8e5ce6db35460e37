import type { LoadCommand } from './load-commands.js';
import { edgeAccept, freshness, readLatency, searchLatency, updateFreshness } from './load-scenarios.js';

/**
 * The load generator: one scenario per run, in a process of its own so that the client's CPU is not the bench's
 * (the service is a third process). The command is argv[2] as JSON; progress goes to stderr, the figures to stdout
 * as one JSON line.
 */
const print = (line: string) => process.stderr.write(`${line}\n`);

async function run(command: LoadCommand): Promise<unknown> {
  switch (command.kind) {
    case 'edge':
      return edgeAccept(command, print);
    case 'search':
      return searchLatency(command, print);
    case 'freshness':
      return freshness(command, print);
    case 'update':
      return updateFreshness(command, print);
    case 'read':
      return readLatency(command, print);
  }
}

run(JSON.parse(process.argv[2] ?? '{}') as LoadCommand).then(
  (result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exit(0);
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
