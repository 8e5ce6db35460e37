import { MemoryServiceError } from '@memory/platform';
import type {
  AppendResult, Consumer, ConsumerOptions, EventLog, GroupLag, LogRecord, OffsetPosition, OutgoingRecord, TopicSpec,
} from '@memory/ports';
import { Kafka, logLevel, type Admin, type RetryOptions } from 'kafkajs';
import { Appender } from './appender.js';
import { BrokerAccess } from './broker-access.js';
import { kafkaErrorType, mapKafkaError } from './error-map.js';
import { JoinGate, KafkaGroupConsumer } from './group-consumer.js';
import { kafkaLogCreator } from './kafka-logging.js';
import { withKafkaRetries } from './kafka-retry.js';
import { resolveOptions, type KafkaEventLogOptions, type ResolvedOptions } from './options.js';
import { partitionFor } from '@memory/contracts';
import { explicitPartitioner } from './partitioner.js';
import { checkPosition, lagOf, offsetFor, toOffset, type Watermarks } from './positions.js';
import { clusterFactoryOf } from './raw-cluster.js';
import { quietIdleRequestQueues } from './idle-request-queue.js';
import { toMessage, validateRecord } from './records.js';
import { topicConfig } from './topic-config.js';

/** Partition counts are cached this long; Kafka clients refresh metadata on the same schedule (metadata.max.age.ms). */
const TOPIC_CACHE_MS = 300_000;
/** Group states in which no member holds partitions, so offsets may be moved from outside. */
const IDLE_GROUP_STATES = new Set(['Empty', 'Dead']);

/**
 * Connects to Kafka and returns the event log. Options are checked before any connection opens; an unreachable
 * cluster fails here with EVENTLOG.UNAVAILABLE (retriable).
 */
export async function openKafkaEventLog(options: KafkaEventLogOptions): Promise<EventLog> {
  const resolved = resolveOptions(options);
  quietIdleRequestQueues();
  const retry: RetryOptions = { retries: resolved.retries, initialRetryTime: 100, maxRetryTime: 5_000 };
  const kafka = new Kafka({
    clientId: resolved.clientId,
    brokers: resolved.brokers,
    connectionTimeout: resolved.connectionTimeoutMs,
    requestTimeout: resolved.requestTimeoutMs,
    retry,
    ...(resolved.socketFactory ? { socketFactory: resolved.socketFactory } : {}),
    logLevel: logLevel.WARN,
    logCreator: kafkaLogCreator(resolved.logger),
  });
  const access = new BrokerAccess(clusterFactoryOf(kafka), resolved.logger, resolved.retries);
  const admin = kafka.admin({ retry });
  const appender = new Appender(
    () =>
      kafka.producer({
        // Exactly one copy of each record per append, even when kafkajs retries a request whose answer was lost.
        idempotent: true,
        maxInFlightRequests: 1,
        allowAutoTopicCreation: false,
        createPartitioner: explicitPartitioner,
        retry,
      }),
    resolved.logger,
  );
  // A broker that is starting, or a box too busy for kafkajs' own metadata wait ("Broker -1 not found in the cached
  // metadata"), fails a connect that the next one gets through: a few tries before a process refuses to start.
  const doing = `connecting to Kafka at ${resolved.brokers.join(',')}`;
  await withKafkaRetries(
    doing,
    async () => {
      try {
        await admin.connect();
        await appender.connect();
      } catch (error) {
        await appender.close();
        await admin.disconnect().catch(() => undefined);
        throw error;
      }
    },
    { retries: Math.min(resolved.retries, CONNECT_RETRIES), beforeRetry: (error) => resolved.logger.warn('could not connect to Kafka, trying again', { error: error.message }) },
  );
  return new KafkaEventLog(resolved, kafka, admin, appender, access);
}

/** Connects tried again at open, each after kafkajs' own retries. */
const CONNECT_RETRIES = 2;

/** How long ensureTopics waits for a new topic's partition leaders beyond kafkajs' own wait. */
const LEADER_WAIT_MS = 30_000;

class KafkaEventLog implements EventLog {
  private readonly consumers = new Set<KafkaGroupConsumer>();
  private readonly topicCache = new Map<string, { partitions: number; at: number }>();
  private closing?: Promise<void>;

  constructor(
    private readonly options: ResolvedOptions,
    private readonly kafka: Kafka,
    private readonly admin: Admin,
    private readonly appender: Appender,
    private readonly access: BrokerAccess,
  ) {}

  async ensureTopics(topics: TopicSpec[]): Promise<void> {
    this.assertOpen();
    const configs = topics.map((spec) => topicConfig(spec, this.options));
    await Promise.all(
      configs.map(async (config) => {
        let created: boolean;
        try {
          created = await this.admin.createTopics({ topics: [config], waitForLeaders: true });
        } catch (error) {
          const type = kafkaErrorType(error);
          // Under load the controller may take longer to elect leaders than kafkajs waits for them: the topic
          // exists, its partitions are still coming up.
          if (type === 'UNKNOWN_TOPIC_OR_PARTITION' || type === 'LEADER_NOT_AVAILABLE') {
            await this.waitForLeaders(config.topic, config.numPartitions!, error);
            created = true;
          } else if (type === 'TOPIC_ALREADY_EXISTS') {
            created = false;
          } else {
            throw this.fail(error, `creating topic ${config.topic}`);
          }
        }
        if (created) {
          this.topicCache.set(config.topic, { partitions: config.numPartitions!, at: Date.now() });
          return;
        }
        // Like the embedded log, an existing topic is left as it is: repartitioning would move keys. Its config too
        // (retention, min.insync.replicas): a topic created before keeps what it was created with, until an
        // operator alters it (kafka-configs --alter).
        this.topicCache.delete(config.topic);
        const existing = await this.partitionsOf(config.topic);
        if (existing !== config.numPartitions) {
          this.options.logger.warn('topic exists with another partition count; keeping it', { topic: config.topic, existing, requested: config.numPartitions });
        }
      }),
    );
  }

  async append(topic: string, records: OutgoingRecord[]): Promise<AppendResult[]> {
    this.assertOpen();
    for (const record of records) validateRecord(topic, record);
    const partitions = await this.partitionsOf(topic);
    if (records.length === 0) return [];
    try {
      return await this.appender.append(topic, records.map((record) => toMessage(record, partitionFor(record.key, partitions))));
    } catch (error) {
      throw this.fail(error, `appending to ${topic}`, topic);
    }
  }

  async consume(options: ConsumerOptions): Promise<Consumer> {
    this.assertOpen();
    const { group, topics, handler } = options;
    if (typeof group !== 'string' || group === '') throw new MemoryServiceError('EVENTLOG.INVALID_CONSUMER', 'a consumer needs a group name');
    if (!Array.isArray(topics) || topics.length === 0) throw new MemoryServiceError('EVENTLOG.INVALID_CONSUMER', `consumer ${group} needs at least one topic`);
    if (typeof handler !== 'function') throw new MemoryServiceError('EVENTLOG.INVALID_CONSUMER', `consumer ${group} needs a handler`);
    const maxBatchSize = options.maxBatchSize ?? this.options.defaultMaxBatchSize;
    if (!Number.isInteger(maxBatchSize) || maxBatchSize < 1) throw new MemoryServiceError('EVENTLOG.INVALID_CONSUMER', `maxBatchSize must be a positive whole number, got ${maxBatchSize}`);
    const batchesInFlight = options.batchesInFlight ?? 1;
    if (!Number.isInteger(batchesInFlight) || batchesInFlight < 1) throw new MemoryServiceError('EVENTLOG.INVALID_CONSUMER', `batchesInFlight must be a positive whole number, got ${batchesInFlight}`);
    const startFrom = options.startFrom ?? { kind: 'earliest' };
    checkPosition(startFrom);
    const unique = [...new Set(topics)];
    let partitions = 0;
    for (const topic of unique) partitions += await this.partitionsOf(topic);
    for (const topic of unique) await this.pinStart(group, topic, startFrom);

    const { options: o } = this;
    // Each join waits for the member's batches in flight (JoinGate), and the coordinator waits for a member's join up
    // to the rebalance timeout: it must exceed the longest batch, or a partition could be handled by two members.
    const gate = new JoinGate();
    const consumer = new KafkaGroupConsumer(
      this.kafka.consumer({
        groupId: group,
        partitionAssigners: [gate.assigner],
        sessionTimeout: o.sessionTimeoutMs,
        heartbeatInterval: o.heartbeatIntervalMs,
        rebalanceTimeout: o.rebalanceTimeoutMs,
        maxWaitTimeInMs: o.maxWaitMs,
        allowAutoTopicCreation: false,
        retry: { retries: o.retries, initialRetryTime: 100, maxRetryTime: 5_000 },
      }),
      {
        group, topics: unique, handler, maxBatchSize, batchesInFlight,
        concurrency: Math.min(partitions, 64),
        fromBeginning: startFrom.kind !== 'latest',
        heartbeatIntervalMs: o.heartbeatIntervalMs,
        rebalanceTimeoutMs: o.rebalanceTimeoutMs,
        retryInitialMs: o.retryInitialMs,
        retryMaxMs: o.retryMaxMs,
      },
      o.logger,
      (stopped) => this.consumers.delete(stopped),
      (memberId) => this.access.leaveGroup(group, memberId),
      gate,
    );
    this.consumers.add(consumer);
    try {
      await consumer.start();
    } catch (error) {
      await consumer.stop();
      throw this.fail(error, `starting a consumer of group ${group}`);
    }
    if (this.closing) {
      // close() ran while this consumer was joining, and could not see it yet.
      await consumer.stop();
      this.assertOpen();
    }
    return consumer;
  }

  async resetOffsets(group: string, topic: string, to: OffsetPosition): Promise<void> {
    this.assertOpen();
    checkPosition(to);
    await this.partitionsOf(topic);
    for (const consumer of this.consumers) {
      if (consumer.settings.group === group && consumer.settings.topics.includes(topic)) throw groupBusy(group, topic, 'it has a running consumer in this process');
    }
    try {
      const { groups } = await this.retrying(`describing group ${group}`, () => this.admin.describeGroups([group]));
      const state = groups.find((g) => g.groupId === group)?.state ?? 'Dead';
      if (!IDLE_GROUP_STATES.has(state)) throw groupBusy(group, topic, `it is ${state} with live members`);
      await this.access.commitStandalone(group, topic, await this.positions(topic, to));
    } catch (error) {
      const mapped = this.fail(error, `resetting group ${group} on ${topic}`, topic);
      // Members that joined between the look and the commit make the broker refuse it.
      if (mapped.code === 'EVENTLOG.REBALANCING') throw groupBusy(group, topic, 'it is rebalancing');
      throw mapped;
    }
  }

  async lag(group: string, topic: string): Promise<GroupLag[]> {
    this.assertOpen();
    await this.partitionsOf(topic);
    try {
      const [entry] = await this.retrying(`fetching the offsets of group ${group}`, () => this.admin.fetchOffsets({ groupId: group, topics: [topic] }));
      const committed = new Map((entry?.partitions ?? []).map((p) => [p.partition, toOffset(p.offset)]));
      return lagOf(topic, committed, await this.watermarks(topic));
    } catch (error) {
      throw this.fail(error, `reading the lag of group ${group} on ${topic}`, topic);
    }
  }

  async read(topic: string, partition: number, fromOffset: number, maxRecords: number): Promise<LogRecord[]> {
    this.assertOpen();
    const partitions = await this.partitionsOf(topic);
    if (!Number.isInteger(partition) || partition < 0 || partition >= partitions) {
      throw new MemoryServiceError('EVENTLOG.UNKNOWN_PARTITION', `topic ${topic} has no partition ${partition}`, { details: { topic, partition } });
    }
    if (!Number.isInteger(fromOffset) || fromOffset < 0) throw new MemoryServiceError('EVENTLOG.INVALID_OFFSET', `fromOffset must be a whole number >= 0, got ${fromOffset}`);
    if (!(maxRecords > 0)) return [];
    const marksOfPartition = async () => (await this.watermarks(topic)).find((m) => m.partition === partition) ?? { partition, low: 0, high: 0 };
    try {
      return await this.access.read(topic, partition, fromOffset, maxRecords, marksOfPartition);
    } catch (error) {
      throw this.fail(error, `reading ${topic}/${partition} from offset ${fromOffset}`, topic);
    }
  }

  private async waitForLeaders(topic: string, partitions: number, cause: unknown): Promise<void> {
    const deadline = Date.now() + LEADER_WAIT_MS;
    while (Date.now() < deadline) {
      try {
        const { topics } = await this.admin.fetchTopicMetadata({ topics: [topic] });
        const found = topics.find((t) => t.name === topic);
        if (found && found.partitions.length === partitions && found.partitions.every((p) => p.leader >= 0)) return;
      } catch (error) {
        if (kafkaErrorType(error) !== 'UNKNOWN_TOPIC_OR_PARTITION' && kafkaErrorType(error) !== 'LEADER_NOT_AVAILABLE') throw this.fail(error, `creating topic ${topic}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw this.fail(cause, `creating topic ${topic} (no leaders after ${LEADER_WAIT_MS / 1000} s)`);
  }

  async partitionsOf(topic: string): Promise<number> {
    this.assertOpen();
    const cached = this.topicCache.get(topic);
    if (cached && Date.now() - cached.at < TOPIC_CACHE_MS) return cached.partitions;
    let partitions: number | undefined;
    try {
      const { topics } = await this.admin.fetchTopicMetadata({ topics: [topic] });
      partitions = topics.find((t) => t.name === topic)?.partitions.length;
    } catch (error) {
      if (kafkaErrorType(error) !== 'UNKNOWN_TOPIC_OR_PARTITION') throw this.fail(error, `looking up topic ${topic}`);
    }
    if (!partitions) {
      throw new MemoryServiceError('EVENTLOG.UNKNOWN_TOPIC', `unknown topic ${topic}; create it with ensureTopics first`, { details: { topic } });
    }
    this.topicCache.set(topic, { partitions, at: Date.now() });
    return partitions;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.allSettled([...this.consumers].map((consumer) => consumer.stop()));
      await this.appender.close();
      await this.access.close();
      await this.admin.disconnect().catch(() => undefined);
    })();
    return this.closing;
  }

  // internals

  /** kafkajs's admin does not retry group calls while a coordinator loads or moves; this does. */
  private retrying<T>(doing: string, task: () => Promise<T>): Promise<T> {
    return withKafkaRetries(doing, task, { retries: this.options.retries });
  }

  private assertOpen(): void {
    if (this.closing) throw new MemoryServiceError('EVENTLOG.CLOSED', 'the event log is closed');
  }

  /** Maps a kafkajs failure; a topic the broker no longer knows is dropped from the cache. */
  private fail(error: unknown, doing: string, topic?: string): MemoryServiceError {
    const mapped = mapKafkaError(error, doing);
    if (mapped.code === 'EVENTLOG.UNKNOWN_TOPIC') {
      if (topic) this.topicCache.delete(topic);
      else this.topicCache.clear();
    }
    return mapped;
  }

  private async watermarks(topic: string): Promise<Watermarks[]> {
    const offsets = await this.retrying(`fetching the watermarks of ${topic}`, () => this.admin.fetchTopicOffsets(topic));
    return offsets.map((p) => ({ partition: p.partition, low: toOffset(p.low), high: toOffset(p.high) }));
  }

  /** The offset `to` stands for in every partition of a topic (or the listed ones). */
  private async positions(topic: string, to: OffsetPosition, only?: number[]): Promise<Array<{ partition: number; offset: number }>> {
    const marks = (await this.watermarks(topic)).filter((m) => !only || only.includes(m.partition));
    let byTimestamp: Map<number, number> | undefined;
    if (to.kind === 'timestamp') {
      const found = await this.retrying(`looking up offsets by timestamp in ${topic}`, () => this.admin.fetchTopicOffsetsByTimestamp(topic, to.timestamp));
      byTimestamp = new Map(found.map((e) => [e.partition, toOffset(e.offset)]));
    }
    return marks.map((m) => ({ partition: m.partition, offset: offsetFor(to, m, byTimestamp?.get(m.partition)) }));
  }

  /**
   * Commits where a group starts on the partitions where it has no offset yet, so 'latest' means "from when the
   * group first ran" rather than "from each start", as in the embedded log. A group that is already running
   * elsewhere has its start pinned by its own members, and is left alone.
   */
  private async pinStart(group: string, topic: string, startFrom: OffsetPosition): Promise<void> {
    try {
      const [entry] = await this.retrying(`fetching the offsets of group ${group}`, () => this.admin.fetchOffsets({ groupId: group, topics: [topic] }));
      const missing = (entry?.partitions ?? []).filter((p) => toOffset(p.offset) < 0).map((p) => p.partition);
      if (missing.length === 0) return;
      await this.access.commitStandalone(group, topic, await this.positions(topic, startFrom, missing));
    } catch (error) {
      const mapped = this.fail(error, `pinning where group ${group} starts on ${topic}`, topic);
      if (mapped.code !== 'EVENTLOG.GROUP_BUSY' && mapped.code !== 'EVENTLOG.REBALANCING') throw mapped;
      this.options.logger.debug('group already has live members; leaving its start to them', { group, topic });
    }
  }
}

function groupBusy(group: string, topic: string, why: string): MemoryServiceError {
  return new MemoryServiceError('EVENTLOG.GROUP_BUSY', `consumer group ${group} cannot move its offsets on ${topic}: ${why}; stop its consumers first`, {
    details: { group, topic },
  });
}
