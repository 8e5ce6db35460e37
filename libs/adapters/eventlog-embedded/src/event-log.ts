import { mkdir } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import { MemoryServiceError, errorMessage, lmdbError, lmdbWriteError } from '@memory/platform';
import type {
  AppendResult, Consumer, ConsumerOptions, EventLog, GroupLag, LogRecord, OffsetPosition, OutgoingRecord, TopicSpec,
} from '@memory/ports';
import { GroupConsumer, type Assignment, type ConsumerHost } from './consumer.js';
import { lockDir, type DirLock } from './dir-lock.js';
import { resolveOptions, type EmbeddedEventLogOptions, type ResolvedOptions } from './options.js';
import { partitionFor } from '@memory/contracts';
import { LogStore, type PartitionRun, type TopicMeta } from './store.js';
import { Wakeups } from './wakeups.js';

interface PartitionState {
  /**
   * Offset the next appended record gets. It runs ahead of the store while appends are in flight, and goes back if
   * they fail: positions ('latest', lag, clamping) are taken from the store instead (end()).
   */
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
  private readonly inFlight = new Map<object, Promise<unknown>>();
  private closing?: Promise<void>;
  /** Set when a write failed, until recover() has reopened the store: the in-memory state may be ahead of it. */
  private stale = false;
  private recovering?: Promise<void>;
  /** From when recover() closes the store until it has opened it again: nothing may read it meanwhile. */
  private storeClosed = false;
  /** The last failed write, which the appends skipped after it fail with. */
  private lastFailure?: Promise<MemoryServiceError>;

  constructor(
    private readonly options: ResolvedOptions,
    private store: LogStore,
    private readonly lock: DirLock,
  ) {
    this.loadTopics();
  }

  get logger() { return this.options.logger; }
  get pollIntervalMs() { return this.options.pollIntervalMs; }
  get retryInitialMs() { return this.options.retryInitialMs; }
  get retryMaxMs() { return this.options.retryMaxMs; }

  async ensureTopics(topics: TopicSpec[]): Promise<void> {
    this.assertUsable();
    if (this.stale) await this.recover();
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
      // From the store, not from 0: records may be there from an earlier creation whose topic write failed.
      this.topicStates.set(spec.name, this.loadTopic(spec.name, meta));
      writes.push(this.store.topics.put(spec.name, meta));
    }
    await this.durably(Promise.all(writes), 'topic creation');
  }

  async append(topic: string, records: OutgoingRecord[]): Promise<AppendResult[]> {
    this.assertUsable();
    if (this.stale) await this.recover();
    const state = this.topic(topic);
    for (const record of records) validateRecord(topic, record);
    const results: AppendResult[] = [];
    const runs = new Map<number, PartitionRun>();
    const now = Date.now();
    // Synchronous from here to the write: the offsets of each partition's run are consecutive, and the append lands
    // in one LMDB transaction, with the other appends of about the same moment, so they share one fsync.
    for (const record of records) {
      const partition = partitionFor(record.key, state.meta.partitions);
      const p = state.partitions[partition]!;
      const offset = p.next++;
      const timestamp = Math.max(now, p.lastTimestamp);
      p.lastTimestamp = timestamp;
      let run = runs.get(partition);
      if (!run) runs.set(partition, (run = { partition, first: offset, records: [] }));
      run.records.push({ timestamp, key: record.key, headers: { ...record.headers }, value: record.value });
      results.push({ topic, partition, offset });
    }
    const written = this.store.appendRecords(topic, [...runs.values()]);
    await this.durably(written.then((landed) => landed || this.skipped()), 'append');
    for (const partition of runs.keys()) this.wakeups.notify(topic, partition);
    return results;
  }

  async consume(options: ConsumerOptions): Promise<Consumer> {
    this.assertUsable();
    if (this.stale) await this.recover();
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
    if (this.stale) await this.recover();
    const state = this.topic(topic);
    if (this.busyGroups.has(groupSlot(group, topic))) throw groupBusy(group, topic);
    // Every position is computed before anything is written: an invalid one must not leave a partial reset.
    const positions = Array.from({ length: state.meta.partitions }, (_, partition) => this.positionOf(topic, partition, to));
    await Promise.all(positions.map((offset, partition) => this.commit(group, topic, partition, offset)));
  }

  async lag(group: string, topic: string): Promise<GroupLag[]> {
    this.assertUsable();
    if (this.stale) await this.recover();
    const state = this.topic(topic);
    return state.partitions.map((_, partition) => ({
      topic,
      partition,
      // A group that never committed has the whole retained partition still to process (the default start is earliest).
      committed: this.store.committed(group, topic, partition) ?? this.logStart(topic, partition),
      end: this.end(topic, partition),
    }));
  }

  async read(topic: string, partition: number, fromOffset: number, maxRecords: number): Promise<LogRecord[]> {
    this.assertUsable();
    if (this.stale) await this.recover();
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
      await Promise.allSettled([...this.inFlight.values()]);
      await this.recovering?.catch(() => {}); // the store it opens is the one to close
      if (!this.storeClosed) await this.store.close();
      await this.lock.release();
    })();
    return this.closing;
  }

  // ConsumerHost

  readBatch(topic: string, partition: number, fromOffset: number, maxRecords: number): LogRecord[] {
    // Nothing to read for a moment: the consumer polls again.
    if (this.storeClosed) return [];
    return this.store.read(topic, partition, fromOffset, maxRecords);
  }

  async commit(group: string, topic: string, partition: number, nextOffset: number): Promise<void> {
    if (this.stale) await this.recover();
    await this.durably(this.store.commit(group, topic, partition, nextOffset), 'offset commit');
  }

  released(consumer: GroupConsumer): void {
    this.consumers.delete(consumer);
    for (const topic of consumer.topics) {
      const slot = groupSlot(consumer.group, topic);
      if (this.busyGroups.get(slot) === consumer) this.busyGroups.delete(slot);
    }
  }

  // internals

  private loadTopics(): void {
    this.topicStates.clear();
    for (const { key, value } of this.store.topics.getRange()) this.topicStates.set(key, this.loadTopic(key, value));
  }

  private loadTopic(name: string, meta: TopicMeta): TopicState {
    const partitions = Array.from({ length: meta.partitions }, (_, partition) => {
      const last = this.store.last(name, partition);
      return last ? { next: last.offset + 1, lastTimestamp: last.timestamp } : { next: 0, lastTimestamp: 0 };
    });
    return { meta, partitions };
  }

  /** Tracks a write so close() and recover() wait for it; a failed one makes the next call recover() first. */
  private durably<T>(write: Promise<T>, operation: string): Promise<T> {
    const key = {};
    const tracked = (async () => {
      try {
        return await write;
      } catch (error) {
        // Before any await: a recovery must not begin until every failure it has to cover is marked.
        this.stale = true;
        const failure = error instanceof MemoryServiceError ? Promise.resolve(error) : lmdbWriteError('EVENTLOG', 'event log', operation, error, this.options.dir);
        this.lastFailure = failure;
        const mapped = await failure;
        this.logger.error('a write to the event log failed; the log reopens its store and continues from what is stored', { operation, code: mapped.code, error: errorMessage(mapped) });
        throw mapped;
      } finally {
        // Gone from the set before the promise settles, so a recovery waiting on it finds the set without it.
        this.inFlight.delete(key);
      }
    })();
    this.inFlight.set(key, tracked);
    return tracked;
  }

  /** An append skipped because the write before it failed (see LogStore.appendRecords): it fails like that one. */
  private async skipped(): Promise<never> {
    throw (await this.lastFailure) ?? new MemoryServiceError('EVENTLOG.STORAGE', 'the append followed a write that failed, and was not written', { retriable: true });
  }

  /**
   * After a failed write: closes the store and opens it again, as LMDB asks after a failed commit (lmdb-js was seen
   * to corrupt its memory when writes went on through the same environment after a full disk), then reads offsets
   * and topics again. It waits first for every write in flight: appends were given offsets from the old state, and
   * the state read again must start after those that landed, neither reusing their offsets nor leaving a gap where
   * one failed. Calls that would write or read wait for it.
   */
  private recover(): Promise<void> {
    this.recovering ??= (async () => {
      while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight.values()]);
      if (!this.storeClosed) {
        this.storeClosed = true;
        await this.store.close();
      }
      try {
        this.store = LogStore.open(this.options.dir);
      } catch (error) {
        throw lmdbError('EVENTLOG', 'event log', 'reopen', error); // the next call tries again
      }
      this.storeClosed = false;
      this.stale = false;
      this.loadTopics();
    })().finally(() => (this.recovering = undefined));
    return this.recovering;
  }

  private assertUsable(): void {
    if (this.closing) throw new MemoryServiceError('EVENTLOG.CLOSED', 'the event log is closed');
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

  /** Offset after the newest stored record: unlike `next`, it counts no append still in flight, which may yet fail. */
  private end(topic: string, partition: number): number {
    this.partition(topic, partition);
    return this.store.nextOffset(topic, partition);
  }

  private logStart(topic: string, partition: number): number {
    return this.store.firstOffset(topic, partition) ?? this.end(topic, partition);
  }

  private clamp(topic: string, partition: number, offset: number): number {
    return Math.min(Math.max(offset, this.logStart(topic, partition)), this.end(topic, partition));
  }

  /** The offset a position stands for in one partition, always within [log start, end]. */
  private positionOf(topic: string, partition: number, to: OffsetPosition): number {
    const end = this.end(topic, partition);
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
    let high = this.end(topic, partition);
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
