/**
 * Child process for the kill -9 test of the event log contract. It opens a log through the adapter's own factory,
 * appends from several concurrent producers without pause, and prints one line per acknowledged record:
 *   ack <partition> <offset> <key> <seq>
 * On Linux, writes to a pipe are synchronous, so every printed line was acknowledged before the parent kills us.
 *
 * Usage: node --conditions=source --import tsx event-log-crash-child.ts '<json config>'
 *   config: { module, exportName, options, topic, producers }
 */
import type { EventLog } from '@memory/ports';

interface ChildConfig {
  module: string;
  exportName: string;
  options: unknown;
  topic: string;
  producers: number;
}

const config = JSON.parse(process.argv[2] ?? '{}') as ChildConfig;
const adapter = (await import(config.module)) as Record<string, (options: unknown) => EventLog | Promise<EventLog>>;
const factory = adapter[config.exportName];
if (typeof factory !== 'function') throw new Error(`${config.module} has no export ${config.exportName}`);
const log = await factory(config.options);
process.stdout.write('ready\n');

await Promise.all(
  Array.from({ length: config.producers }, async (_, producer) => {
    const key = `producer-${producer}`;
    for (let seq = 0; ; seq++) {
      const [result] = await log.append(config.topic, [{ key, value: Buffer.from(`${key}:${seq}`), headers: { seq: String(seq) } }]);
      if (!result) throw new Error('append returned no result');
      process.stdout.write(`ack ${result.partition} ${result.offset} ${key} ${seq}\n`);
    }
  }),
);
