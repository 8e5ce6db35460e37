import { Kafka, logLevel } from 'kafkajs';
import { namespaceTopicPrefix } from '@memory/composition';
import { REQUEST_ID_RECORD_HEADER } from '@memory/contracts';

/**
 * When each of some requests' records was appended to each topic: the record timestamps (set by the producing
 * process when it appends) of the records carrying each request id in their headers, which every stage copies
 * from its input onto its outputs. Read with a consumer group of the namespace (deleted with it), from the
 * beginning, until every request has a record in every topic or `timeoutMs` passes.
 */
export async function recordMoments(brokers: string[], namespace: string, topics: readonly string[], requestIds: readonly string[], timeoutMs = 60_000): Promise<Map<string, Map<string, number>>> {
  const wanted = new Set(requestIds);
  const moments = new Map<string, Map<string, number>>(requestIds.map((id) => [id, new Map()]));
  const complete = () => [...moments.values()].every((byTopic) => byTopic.size === topics.length);
  const prefix = namespaceTopicPrefix(namespace);
  const consumer = new Kafka({ brokers, clientId: 'bench-breakdown', logLevel: logLevel.NOTHING }).consumer({ groupId: `${prefix}bench-breakdown` });
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: topics.map((topic) => prefix + topic), fromBeginning: true });
    let resolveDone: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (resolveDone = resolve));
    await consumer.run({
      eachMessage: async ({ topic, message }) => {
        const requestId = message.headers?.[REQUEST_ID_RECORD_HEADER]?.toString();
        if (!requestId || !wanted.has(requestId)) return;
        const byTopic = moments.get(requestId)!;
        const logical = topic.slice(prefix.length);
        const at = Number(message.timestamp);
        // A topic a request passes more than once (job status: one record per stage) counts its first record.
        if (!byTopic.has(logical) || at < byTopic.get(logical)!) byTopic.set(logical, at);
        if (complete()) resolveDone();
      },
    });
    await Promise.race([done, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
    return moments;
  } finally {
    await consumer.disconnect();
  }
}
