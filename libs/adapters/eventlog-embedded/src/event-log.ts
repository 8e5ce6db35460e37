import { mkdir } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import { MemoryServiceError, errorMessage } from '@memory/platform';
import type {
  AppendResult, Consumer, ConsumerOptions, EventLog, GroupLag, LogRecord, OffsetPosition, OutgoingRecord, TopicSpec,
} from '@memory/ports';
import { GroupConsumer, type Assignment, type ConsumerHost } from './consumer.js';
import { lockDir, type DirLock } from './dir-lock.js';
import { resolveOptions, type EmbeddedEventLogOptions, type ResolvedOptions } from './options.js';
import { partitionFor } from '@memory/contracts';
import { LogStore, type TopicMeta } from './store.js';
import { Wakeups } from './wakeups.js';

interface PartitionState {
  /** Offset the next appended record gets. */
  next: number;
  /** Timestamp of the newest record: the floor for the next one, so time never runs backwards in a partition. */
  lastTimestamp: number;
}

interface TopicState {
  meta: TopicMeta;
  partitions: PartitionState[];
}

/**
 * Opens (creating if needed) the embedded log in `dir`. Fails with EVENTLOG.DIR_LOCKED while another process, or
 * another instance in this process, has the same directory open.
 */
export async function createEmbeddedEventLog(options: EmbeddedEventLogOptions): Promise<EventLog> {
  const resolved = resolveOptions(options);
  const dir = resolvePath(resolved.dir);
  await mkdir(dir, { recursive: true });
  const lock = await lockDir(dir);
  try {
    return new EmbeddedEventLog({ ...resolved, dir }, LogStore.open(dir), lock);
  } catch (error) {
    await lock.release();
    throw error;
  }
}

class EmbeddedEventLog implements EventLog, ConsumerHost {
  readonly wakeups = new Wakeups();
  private readonly topicStates = new Map<string, TopicState>();
  private readonly busyGroups = new Map<string, GroupConsumer>();
  private readonly consumers = new Set<GroupConsumer>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private closing?: Promise<void>;
  /** Set when a write failed: in-memory offsets may be ahead of the disk, so only a reopen can continue. */
  private broken?: unknown;

  constructor(
    private readonly options: ResolvedOptions,
    private readonly store: LogStore,
    private readonly lock: DirLock,
  ) {
    for (const { key, value } of store.topics.getRange()) this.topicStates.set(key, this.loadTopic(key, value));
  }

  get logger() { return this.options.logger; }
  get pollIntervalMs() { return this.options.pollIntervalMs; }
  get retryInitialMs() { return this.options.retryInitialMs; }
  get retryMaxMs() { return this.options.retryMaxMs; }

  async ensureTopics(topics: TopicSpec[]): Promise<void> {
    this.assertUsable();
    const writes: Promise<boolean>[] = [];
    for (const spec of topics) {
      if (typeof spec.name !== 'string' || spec.name === '') throw new MemoryServiceError('EVENTLOG.INVALID_TOPIC', 'a topic needs a non-empty name');
      const partitions = spec.partitions || this.options.defaultPartitions;
      if (!Number.isInteger(partitions) || partitions < 1) {
        throw new MemoryServiceError('EVENTLOG.INVALID_TOPIC', `topic ${spec.name}: partitions must be a positive whole number, got ${spec.partitions}`);
      }
      const existing = this.topicStates.get(spec.name);
      if (existing) {
        // Like Kafka's createTopics, an existing topic is left as it is: repartitioning would move keys.
        if (existing.meta.partitions !== partitions) {
          this.logger.warn('topic exists with another partition count; keeping it', { topic: spec.name, existing: existing.meta.partitions, requested: partitions });
        }
        continue;
      }
      const meta: TopicMeta = { partitions, createdAt: Date.now(), ...(spec.retentionMs === undefined ? {} : { retentionMs: spec.retentionMs }) };
      this.topicStates.set(spec.name, { meta, partitions: Array.from({ length: partitions }, () => ({ next: 0, lastTimestamp: 0 })) });
      writes.push(this.store.topics.put(spec.name, meta));
    }
    await this.durably(Promise.all(writes));
  }

  async append(topic: string, records: OutgoingRecord[]): Promise<AppendResult[]> {
    this.assertUsable();
    const state = this.topic(topic);
    for (const record of records) validateRecord(topic, record);
    const results: AppendResult[] = [];
    const writes = new Set<Promise<boolean>>();
    const touched = new Set<number>();
    const now = Date.now();
    // Synchronous from here to the last put: all of it lands in one LMDB transaction, together with every other
    // append of this event turn, so many concurrent appends share one fsync.
    for (const record of records) {
      const partition = partitionFor(record.key, state.meta.partitions);
      const p = state.partitions[partition]!;
      const offset = p.next++;
      const timestamp = Math.max(now, p.lastTimestamp);
      p.lastTimestamp = timestamp;
      writes.add(this.store.putRecord(topic, partition, offset, { timestamp, key: record.key, headers: { ...record.headers }, value: record.value }));
      touched.add(partition);
      results.push({ topic, partition, offset });
    }
    await this.durably(Promise.all(writes));
    for (const partition of touched) this.wakeups.notify(topic, partition);
    return results;
  }

  async consume(options: ConsumerOptions): Promise<Consumer> {
    this.assertUsable();
    const { group, topics, handler } = options;
    if (typeof group !== 'string' || group === '') throw new MemoryServiceError('EVENTLOG.INVALID_CONSUMER', 'a consumer needs a group name');
    if (!Array.isArray(topics) || topics.length === 0) throw new MemoryServiceError('EVENTLOG.INVALID_CONSUMER', `consumer ${group} needs at least one topic`);
    if (typeof handler !== 'function') throw new MemoryServiceError('EVENTLOG.INVALID_CONSUMER', `consumer ${group} needs a handler`);
    const maxBatchSize = options.maxBatchSize ?? this.options.defaultMaxBatchSize;
    if (!Number.isInteger(maxBatchSize) || maxBatchSize < 1) throw new MemoryServiceError('EVENTLOG.INVALID_CONSUMER', `maxBatchSize must be a positive whole number, got ${maxBatchSize}`);
    const batchesInFlight = options.batchesInFlight ?? 1;
    if (!Number.isInteger(batchesInFlight) || batchesInFlight < 1) throw new MemoryServiceError('EVENTLOG.INVALID_CONSUMER', `batchesInFlight must be a positive whole number, got ${batchesInFlight}`);
    const unique = [...new Set(topics)];
    for (const topic of unique) {
      this.topic(topic);
      if (this.busyGroups.has(groupSlot(group, topic))) throw groupBusy(group, topic);
    }
    const consumer = new GroupConsumer(this, group, unique, handler, maxBatchSize, batchesInFlight);
    for (const topic of unique) this.busyGroups.set(groupSlot(group, topic), consumer);
    this.consumers.add(consumer);
    try {
      const assignments: Assignment[] = [];
      const firstCommits: Promise<void>[] = [];
      for (const topic of unique) {
        for (let partition = 0; partition < this.topic(topic).meta.partitions; partition++) {
          const committed = this.store.committed(group, topic, partition);
          const position = committed === undefined ? this.positionOf(topic, partition, options.startFrom ?? { kind: 'earliest' }) : this.clamp(topic, partition, committed);
          // Pin where a new group starts, so 'latest' means "from when the group first ran", not "from each start".
          if (committed === undefined) firstCommits.push(this.commit(group, topic, partition, position));
          assignments.push({ topic, partition, position });
        }
      }
      await Promise.all(firstCommits);
      consumer.start(assignments);
      return consumer;
    } catch (error) {
      this.released(consumer);
      throw error;
    }
  }

  async resetOffsets(group: string, topic: string, to: OffsetPosition): Promise<void> {
    this.assertUsable();
    const state = this.topic(topic);
    if (this.busyGroups.has(groupSlot(group, topic))) throw groupBusy(group, topic);
    // Every position is computed before anything is written: an invalid one must not leave a partial reset.
    const positions = Array.from({ length: state.meta.partitions }, (_, partition) => this.positionOf(topic, partition, to));
    await Promise.all(positions.map((offset, partition) => this.commit(group, topic, partition, offset)));
  }

  async lag(group: string, topic: string): Promise<GroupLag[]> {
    this.assertUsable();
    const state = this.topic(topic);
    return state.partitions.map((p, partition) => ({
      topic,
      partition,
      // A group that never committed has the whole retained partition still to process (the default start is earliest).
      committed: this.store.committed(group, topic, partition) ?? this.logStart(topic, partition),
      end: p.next,
    }));
  }

  async read(topic: string, partition: number, fromOffset: number, maxRecords: number): Promise<LogRecord[]> {
    this.assertUsable();
    this.partition(topic, partition);
    if (!Number.isInteger(fromOffset) || fromOffset < 0) throw new MemoryServiceError('EVENTLOG.INVALID_OFFSET', `fromOffset must be a whole number >= 0, got ${fromOffset}`);
    if (maxRecords <= 0) return [];
    return this.store.read(topic, partition, fromOffset, maxRecords);
  }

  async partitionsOf(topic: string): Promise<number> {
    this.assertUsable();
    return this.topic(topic).meta.partitions;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.all([...this.consumers].map((c) => c.stop()));
      await Promise.allSettled([...this.inFlight]);
      await this.store.close();
      await this.lock.release();
    })();
    return this.closing;
  }

  // ConsumerHost

  readBatch(topic: string, partition: number, fromOffset: number, maxRecords: number): LogRecord[] {
    return this.store.read(topic, partition, fromOffset, maxRecords);
  }

  async commit(group: string, topic: string, partition: number, nextOffset: number): Promise<void> {
    await this.durably(this.store.commit(group, topic, partition, nextOffset));
  }

  released(consumer: GroupConsumer): void {
    this.consumers.delete(consumer);
    for (const topic of consumer.topics) {
      const slot = groupSlot(consumer.group, topic);
      if (this.busyGroups.get(slot) === consumer) this.busyGroups.delete(slot);
    }
  }

  // internals

  private loadTopic(name: string, meta: TopicMeta): TopicState {
    const partitions = Array.from({ length: meta.partitions }, (_, partition) => {
      const last = this.store.last(name, partition);
      return last ? { next: last.offset + 1, lastTimestamp: last.timestamp } : { next: 0, lastTimestamp: 0 };
    });
    return { meta, partitions };
  }

  /** Tracks a write so close() waits for it, and marks the log broken if it fails. */
  private async durably<T>(write: Promise<T>): Promise<T> {
    this.inFlight.add(write);
    try {
      return await write;
    } catch (error) {
      this.broken ??= error;
      this.logger.error('a write to the event log failed; reopen the log to continue', { error: errorMessage(error) });
      throw new MemoryServiceError('EVENTLOG.WRITE_FAILED', `writing to the event log failed: ${errorMessage(error)}`, { cause: error });
    } finally {
      this.inFlight.delete(write);
    }
  }

  private assertUsable(): void {
    if (this.closing) throw new MemoryServiceError('EVENTLOG.CLOSED', 'the event log is closed');
    if (this.broken !== undefined) {
      throw new MemoryServiceError('EVENTLOG.WRITE_FAILED', `the event log stopped after a failed write (${errorMessage(this.broken)}); reopen it`, { cause: this.broken });
    }
  }

  private topic(name: string): TopicState {
    const state = this.topicStates.get(name);
    if (!state) throw new MemoryServiceError('EVENTLOG.UNKNOWN_TOPIC', `unknown topic ${name}; create it with ensureTopics first`, { details: { topic: name } });
    return state;
  }

  private partition(topic: string, partition: number): PartitionState {
    const state = this.topic(topic).partitions[partition];
    if (!Number.isInteger(partition) || !state) {
      throw new MemoryServiceError('EVENTLOG.UNKNOWN_PARTITION', `topic ${topic} has no partition ${partition}`, { details: { topic, partition } });
    }
    return state;
  }

  private logStart(topic: string, partition: number): number {
    return this.store.firstOffset(topic, partition) ?? this.partition(topic, partition).next;
  }

  private clamp(topic: string, partition: number, offset: number): number {
    return Math.min(Math.max(offset, this.logStart(topic, partition)), this.partition(topic, partition).next);
  }

  /** The offset a position stands for in one partition, always within [log start, end]. */
  private positionOf(topic: string, partition: number, to: OffsetPosition): number {
    const end = this.partition(topic, partition).next;
    switch (to.kind) {
      case 'earliest':
        return this.logStart(topic, partition);
      case 'latest':
        return end;
      case 'offset':
        if (!Number.isInteger(to.offset) || to.offset < 0) throw new MemoryServiceError('EVENTLOG.INVALID_OFFSET', `offset must be a whole number >= 0, got ${to.offset}`);
        return this.clamp(topic, partition, to.offset);
      case 'timestamp':
        return this.firstAtOrAfter(topic, partition, to.timestamp);
      case 'offsets': {
        const offset = to.byPartition[partition];
        if (offset === undefined) throw new MemoryServiceError('EVENTLOG.INVALID_OFFSET', `no offset given for partition ${partition} of ${topic}`);
        return this.positionOf(topic, partition, { kind: 'offset', offset });
      }
      default:
        throw new MemoryServiceError('EVENTLOG.INVALID_OFFSET', `unknown offset position ${JSON.stringify(to)}`);
    }
  }

  /** First offset whose timestamp is >= t; timestamps never decrease within a partition, so a binary search works. */
  private firstAtOrAfter(topic: string, partition: number, t: number): number {
    let low = this.logStart(topic, partition);
    let high = this.partition(topic, partition).next;
    while (low < high) {
      const mid = Math.floor((low + high) / 2);
      const ts = this.store.timestampAt(topic, partition, mid);
      if (ts === undefined || ts >= t) high = mid;
      else low = mid + 1;
    }
    return low;
  }
}

function validateRecord(topic: string, record: OutgoingRecord): void {
  if (typeof record?.key !== 'string') throw new MemoryServiceError('EVENTLOG.INVALID_RECORD', `a record for ${topic} needs a string key`);
  if (!Buffer.isBuffer(record.value)) throw new MemoryServiceError('EVENTLOG.INVALID_RECORD', `a record for ${topic} needs a Buffer value`);
  if (record.headers !== undefined) {
    for (const [name, value] of Object.entries(record.headers)) {
      if (typeof value !== 'string') throw new MemoryServiceError('EVENTLOG.INVALID_RECORD', `header ${name} of a record for ${topic} must be a string`);
    }
  }
}

function groupSlot(group: string, topic: string): string {
  return `${group}\u0000${topic}`;
}

function groupBusy(group: string, topic: string): MemoryServiceError {
  return new MemoryServiceError(
    'EVENTLOG.GROUP_BUSY',
    `consumer group ${group} already has a running consumer on topic ${topic} in this process; stop it first (the embedded log does not rebalance)`,
    { details: { group, topic } },
  );
}
