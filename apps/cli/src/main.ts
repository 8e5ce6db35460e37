import type { ServiceMode } from '@memory/composition';

// Each command's module is imported when it runs: the launcher of start-distributed stays up as long as the
// service, and need not hold the API, the Avro contracts and the stores' code the other commands use.
const commands = {
  startDistributed: async () => (await import('./commands/start-distributed.js')).startDistributed,
  buildApps: async () => (await import('./commands/start-distributed.js')).buildApps,
  replay: () => import('./commands/replay.js'),
  exportToKafka: async () => (await import('./commands/export-to-kafka.js')).exportToKafka,
  eraseTenant: async () => (await import('./commands/erase-tenant.js')).eraseTenant,
};

const USAGE = `memory cli (npm run cli -- <command>)

  start-distributed                 edge, search, the enricher and one worker for the other stages
                                    (MEMORY_STAGE_WORKERS=each: one per stage), compiled, against the engines
  build-apps [--json]               compile the apps into dist/apps when a source changed since the last build;
                                    --json: then print each app's bundle path as JSON (the progress goes to stderr)
  lag [--distributed]               records each consumer group still has to process
  reset-group <stage|group> <earliest|latest|offset|ISO time> [--topic T] [--distributed]
                                    move a stopped group; its next start reads from there
  rebuild <vectors|graph|centroids|jobs> [--distributed]
                                    replay the stage that writes the store from the earliest record
  export-to-kafka                   copy the embedded log (MEMORY_DATA_DIR) into Kafka, with data keys, schemas and offsets
  erase-tenant <tenant> [--distributed]
                                    forget everything of a tenant: one erasure job per end user, printed as the API
                                    prints a DELETE's answer

Without --distributed the commands act on the embedded log in MEMORY_DATA_DIR (stop memoryd first).`;

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}

async function main(argv: string[]): Promise<number> {
  const print = (line: string) => process.stdout.write(line + '\n');
  const [command, ...args] = argv;
  const mode: ServiceMode = args.includes('--distributed') ? 'distributed' : 'embedded';
  const positional = args.filter((arg, i) => !arg.startsWith('--') && args[i - 1] !== '--topic');
  switch (command) {
    case 'start-distributed':
      await (await commands.startDistributed())(process.env, print);
      return -1; // keeps running until a signal
    case 'build-apps': {
      const json = args.includes('--json');
      const bundles = await (await commands.buildApps())(json ? (line) => process.stderr.write(line + '\n') : print);
      if (json) print(JSON.stringify(bundles));
      return 0;
    }
    case 'lag':
      await (await commands.replay()).showLag(mode, process.env, print);
      return 0;
    case 'reset-group': {
      const [group, position] = positional;
      if (!group || !position) break;
      const { parsePosition, resetGroup } = await commands.replay();
      await resetGroup(mode, process.env, group, parsePosition(position), option(args, '--topic'), print);
      return 0;
    }
    case 'rebuild': {
      const [store] = positional;
      if (!store) break;
      await (await commands.replay()).rebuildStore(mode, process.env, store, print);
      return 0;
    }
    case 'export-to-kafka':
      await (await commands.exportToKafka())(process.env, print);
      return 0;
    case 'erase-tenant': {
      const [tenant] = positional;
      if (!tenant) break;
      await (await commands.eraseTenant())(mode, process.env, tenant, print);
      return 0;
    }
  }
  process.stderr.write(USAGE + '\n');
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    if ((error as { code?: string }).code === 'EVENTLOG.DIR_LOCKED') {
      process.stderr.write('The embedded log belongs to one process at a time: stop the service using this MEMORY_DATA_DIR first.\n');
    }
    process.exit(1);
  },
);
