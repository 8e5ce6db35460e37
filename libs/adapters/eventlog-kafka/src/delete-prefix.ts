import { Kafka, logLevel } from 'kafkajs';
import { MemoryServiceError, RetriesExhaustedError, retry } from '@memory/platform';
import { mapKafkaError } from './error-map.js';

/**
 * Waits for a group whose last member was killed rather than stopped: the coordinator keeps it until the member's
 * session times out (30 s by default), and refuses to delete a group with members.
 */
const NON_EMPTY_GROUP_RETRY = { retries: 12, initialDelayMs: 1_000, maxDelayMs: 8_000, factor: 2 };

interface GroupFailure {
  groupId: string;
  error?: { type?: string };
}

/**
 * Deletes the topics and the consumer groups whose names start with `prefix` (a namespace's: `<namespace>.`). How a
 * test, a benchmark or a drill that ran on a namespace of its own leaves the cluster as it found it, once the
 * namespace's processes have stopped. Topics go first, so a group that still has a member (a process killed rather
 * than stopped, until its session times out) holds back only its own deletion, which is asked again meanwhile.
 */
export async function deleteKafkaPrefix(brokers: string[], prefix: string): Promise<{ topics: number; groups: number }> {
  if (prefix.length === 0) throw new Error('deleteKafkaPrefix needs a prefix: an empty one would name every topic of the cluster');
  const admin = new Kafka({ brokers, clientId: 'memory-namespace-cleanup', logLevel: logLevel.NOTHING }).admin();
  try {
    await admin.connect();
    const topics = (await admin.listTopics()).filter((topic) => topic.startsWith(prefix));
    if (topics.length > 0) await admin.deleteTopics({ topics, timeout: 30_000 });
    const groups = (await admin.listGroups()).groups.map((group) => group.groupId).filter((id) => id.startsWith(prefix));
    let left = groups;
    await retry(async () => {
      if (left.length === 0) return;
      try {
        await admin.deleteGroups(left);
        left = [];
      } catch (error) {
        const failures = (error as { groups?: GroupFailure[] }).groups ?? [];
        if (failures.length === 0 || failures.some((failure) => failure.error?.type !== 'NON_EMPTY_GROUP')) throw error;
        left = failures.map((failure) => failure.groupId);
        throw new MemoryServiceError('EVENTLOG.GROUP_IN_USE', `consumer groups ${left.join(', ')} still have members`, { retriable: true });
      }
    }, NON_EMPTY_GROUP_RETRY);
    return { topics: topics.length, groups: groups.length };
  } catch (error) {
    throw mapKafkaError(error instanceof RetriesExhaustedError ? error.cause : error, `deleting the topics and groups named ${prefix}*`);
  } finally {
    await admin.disconnect();
  }
}
