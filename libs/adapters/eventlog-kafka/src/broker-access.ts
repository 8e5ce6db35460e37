import { MemoryServiceError, type Logger } from '@memory/platform';
import type { LogRecord } from '@memory/ports';
import { kafkaErrorType } from './error-map.js';
import { withKafkaRetries } from './kafka-retry.js';
import type { Watermarks } from './positions.js';
import { READ_COMMITTED, type RawBroker, type RawCluster, clusterFactoryOf } from './raw-cluster.js';
import { toLogRecord } from './records.js';

/** Per fetch request; the broker still returns one whole record batch when it alone is larger (KIP-74). */
const FETCH_MAX_BYTES = 1024 * 1024;

/**
 * Group-less reads and standalone offset commits over kafkajs's internal cluster (see raw-cluster.ts for why).
 * Connects on first use; one instance per event log.
 */
export class BrokerAccess {
  private cluster?: Promise<RawCluster>;
  private closed = false;

  constructor(
    private readonly createCluster: ReturnType<typeof clusterFactoryOf>,
    private readonly logger: Logger,
    private readonly retries: number,
  ) {}

  /**
   * Up to `maxRecords` records of one partition from `fromOffset` on, in offset order. An offset before the log
   * start reads from the log start (retention removed the rest); one at or past the end reads nothing.
   */
  async read(topic: string, partition: number, fromOffset: number, maxRecords: number, watermarks: () => Promise<Watermarks>): Promise<LogRecord[]> {
    const out: LogRecord[] = [];
    let next = fromOffset;
    while (out.length < maxRecords) {
      let fetched;
      try {
        fetched = await this.fetchOnce(topic, partition, next);
      } catch (error) {
        if (kafkaErrorType(error) !== 'OFFSET_OUT_OF_RANGE') throw error;
        const { low } = await watermarks();
        if (next >= low) return out;
        next = low;
        continue;
      }
      const { messages, highWatermark } = fetched;
      // A fetch returns whole record batches, so the first one may start before the offset asked for.
      for (const message of messages) {
        if (out.length >= maxRecords) break;
        if (message.isControlRecord || Number(message.offset) < next) continue;
        out.push(toLogRecord(topic, partition, message));
      }
      const last = messages[messages.length - 1];
      if (!last || out.length >= maxRecords) break;
      next = Math.max(next, Number(last.offset) + 1);
      if (next >= Number(highWatermark)) break;
    }
    return out;
  }

  /** Commits offsets for a group that has no live members (generation -1), as Kafka's own admin tools do. */
  async commitStandalone(groupId: string, topic: string, offsets: Array<{ partition: number; offset: number }>): Promise<void> {
    if (offsets.length === 0) return;
    await this.withRetries(`committing offsets of group ${groupId} on ${topic}`, async (cluster) => {
      const coordinator = await cluster.findGroupCoordinator({ groupId });
      await coordinator.offsetCommit({
        groupId,
        groupGenerationId: -1,
        memberId: '',
        topics: [{ topic, partitions: offsets.map(({ partition, offset }) => ({ partition, offset: String(offset) })) }],
      });
    });
  }

  /**
   * Removes `memberId` from the group, as that member's own LeaveGroup would. Resolves false when the coordinator
   * no longer knows the member (it left or timed out already).
   */
  async leaveGroup(groupId: string, memberId: string): Promise<boolean> {
    try {
      await this.withRetries(`removing member ${memberId} from group ${groupId}`, async (cluster) => {
        const coordinator = await cluster.findGroupCoordinator({ groupId });
        await coordinator.leaveGroup({ groupId, memberId });
      });
      return true;
    } catch (error) {
      if (kafkaErrorType(error) === 'UNKNOWN_MEMBER_ID') return false;
      throw error;
    }
  }

  async close(): Promise<void> {
    // A call still retrying (a consumer's removal of its old member id, say) must not open a new connection.
    this.closed = true;
    const cluster = this.cluster;
    this.cluster = undefined;
    if (cluster) await cluster.then((c) => c.disconnect()).catch(() => undefined);
  }

  private fetchOnce(topic: string, partition: number, fetchOffset: number) {
    return this.withRetries(`reading ${topic}/${partition} from offset ${fetchOffset}`, async (cluster) => {
      const broker = await this.leaderOf(cluster, topic, partition);
      const { responses } = await broker.fetch({
        maxWaitTime: 0,
        minBytes: 1,
        maxBytes: FETCH_MAX_BYTES,
        isolationLevel: READ_COMMITTED,
        topics: [{ topic, partitions: [{ partition, fetchOffset: String(fetchOffset), maxBytes: FETCH_MAX_BYTES }] }],
      });
      const data = responses.find((r) => r.topicName === topic)?.partitions.find((p) => p.partition === partition);
      return data ?? { partition, errorCode: 0, highWatermark: String(fetchOffset), messages: [] };
    });
  }

  private async leaderOf(cluster: RawCluster, topic: string, partition: number): Promise<RawBroker> {
    await cluster.addTargetTopic(topic);
    const byNode = cluster.findLeaderForPartitions(topic, [partition]);
    const nodeId = Object.keys(byNode)[0];
    if (nodeId === undefined) {
      await cluster.refreshMetadata();
      throw Object.assign(new Error(`no leader known for ${topic}/${partition}`), { name: 'KafkaJSBrokerNotFound' });
    }
    return cluster.findBroker({ nodeId });
  }

  /** Runs `task`, refreshing metadata before each retry of an error a new leader or connection can fix. */
  private async withRetries<T>(doing: string, task: (cluster: RawCluster) => Promise<T>): Promise<T> {
    return withKafkaRetries(doing, async () => task(await this.connected()), {
      retries: this.retries,
      beforeRetry: (error) => {
        this.logger.debug('retrying a raw broker request', { doing, code: error.code, error: error.message });
        void this.cluster?.then((cluster) => cluster.refreshMetadata()).catch(() => undefined);
      },
    });
  }

  private connected(): Promise<RawCluster> {
    if (this.closed) return Promise.reject(new MemoryServiceError('EVENTLOG.CLOSED', 'the event log is closed'));
    this.cluster ??= (async () => {
      const cluster = this.createCluster({ allowAutoTopicCreation: false, metadataMaxAge: 300_000 });
      await cluster.connect();
      return cluster;
    })();
    const pending = this.cluster;
    // A failed connect is forgotten so the next call tries again instead of failing forever.
    pending.catch(() => {
      if (this.cluster === pending) this.cluster = undefined;
    });
    return pending;
  }
}
