import { Kafka, logLevel } from 'kafkajs';
import { mapKafkaError } from './error-map.js';

/**
 * Deletes the consumer groups and the topics whose names start with `prefix` (a namespace's: `<namespace>.`). How a
 * test, a benchmark or a drill that ran on a namespace of its own leaves the cluster as it found it; the groups must
 * have no live members left, so it runs once the namespace's processes have stopped.
 */
export async function deleteKafkaPrefix(brokers: string[], prefix: string): Promise<{ topics: number; groups: number }> {
  if (prefix.length === 0) throw new Error('deleteKafkaPrefix needs a prefix: an empty one would name every topic of the cluster');
  const admin = new Kafka({ brokers, clientId: 'memory-namespace-cleanup', logLevel: logLevel.NOTHING }).admin();
  try {
    await admin.connect();
    const groups = (await admin.listGroups()).groups.map((group) => group.groupId).filter((id) => id.startsWith(prefix));
    if (groups.length > 0) await admin.deleteGroups(groups);
    const topics = (await admin.listTopics()).filter((topic) => topic.startsWith(prefix));
    if (topics.length > 0) await admin.deleteTopics({ topics, timeout: 30_000 });
    return { topics: topics.length, groups: groups.length };
  } catch (error) {
    throw mapKafkaError(error, `deleting the topics and groups named ${prefix}*`);
  } finally {
    await admin.disconnect();
  }
}
