import type { ConsumerOptions, EventLog, LogRecord } from '@memory/ports';

/** What the topics and consumer groups of a namespace start with. */
export const namespaceTopicPrefix = (namespace: string) => `${namespace}.`;

/**
 * An event log whose topics and consumer groups carry a prefix, so several deployments (or test runs) share one
 * Kafka cluster without seeing each other's records or offsets. Callers keep using the logical names.
 */
export function namespacedEventLog(log: EventLog, namespace: string): EventLog {
  const prefix = namespaceTopicPrefix(namespace);
  const physical = (name: string) => prefix + name;
  const logical = (record: LogRecord): LogRecord => ({ ...record, topic: record.topic.slice(prefix.length) });
  return {
    ensureTopics: (topics) => log.ensureTopics(topics.map((topic) => ({ ...topic, name: physical(topic.name) }))),
    append: async (topic, records) => (await log.append(physical(topic), records)).map((result) => ({ ...result, topic })),
    consume: (options: ConsumerOptions) =>
      log.consume({
        ...options,
        group: physical(options.group),
        topics: options.topics.map(physical),
        handler: (batch) => options.handler(batch.map(logical)),
      }),
    resetOffsets: (group, topic, to) => log.resetOffsets(physical(group), physical(topic), to),
    lag: async (group, topic) => (await log.lag(physical(group), physical(topic))).map((lag) => ({ ...lag, topic })),
    read: async (topic, partition, fromOffset, maxRecords) => (await log.read(physical(topic), partition, fromOffset, maxRecords)).map(logical),
    partitionsOf: (topic) => log.partitionsOf(physical(topic)),
    close: () => log.close(),
  };
}
