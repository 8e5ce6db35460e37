/** One record as stored in a topic partition. Values are opaque bytes (Avro in Confluent wire format). */
export interface LogRecord {
  topic: string;
  partition: number;
  offset: number;
  key: string;
  value: Buffer;
  /** Epoch millis when the log appended the record; non-decreasing within a partition. */
  timestamp: number;
  headers: Record<string, string>;
}

export interface OutgoingRecord {
  key: string;
  value: Buffer;
  headers?: Record<string, string>;
}

export interface AppendResult {
  topic: string;
  partition: number;
  offset: number;
}

export interface TopicSpec {
  name: string;
  partitions: number;
  /** How long records are kept; undefined keeps them forever (the log is the source of truth). */
  retentionMs?: number;
}

/** Where a consumer group starts reading a partition that has no committed offset, or where a reset moves it. */
export type OffsetPosition =
  | { kind: 'earliest' }
  | { kind: 'latest' }
  | { kind: 'offset'; offset: number }
  | { kind: 'timestamp'; timestamp: number }
  /** One offset per partition (index = partition): how a migration carries a group's positions over. */
  | { kind: 'offsets'; byPartition: number[] };

/**
 * Called with a batch of records from ONE partition, in offset order. When it resolves, the group's offset moves
 * past the batch (committed durably); when it rejects, nothing is committed and the same records are delivered
 * again (at-least-once).
 */
export type BatchHandler = (batch: LogRecord[]) => Promise<void>;

export interface ConsumerOptions {
  group: string;
  topics: string[];
  handler: BatchHandler;
  /** Where to start when the group has no committed offset for a partition. Default earliest. */
  startFrom?: OffsetPosition;
  /** Largest batch handed to the handler. */
  maxBatchSize?: number;
  /**
   * How many batches of one partition may be handed to the handler before the earliest of them is committed.
   * Default 1: each batch after the one before it resolved. With more, the next batches of a partition are handed
   * over while earlier ones are still in flight, so a record is not held behind a slow batch of other keys; the
   * handler then keeps whatever order it needs itself (the pipeline runner keeps each key's). Offsets are committed
   * in order: a batch's end is committed only once it and every earlier batch of its partition resolved. A rejected
   * batch is delivered again, once every batch in flight has settled, together with everything after it, even the
   * batches that resolved (at-least-once: handlers must be idempotent). stop() waits for every batch in flight.
   */
  batchesInFlight?: number;
}

export interface Consumer {
  /** Stops fetching, waits for the batches in flight, commits what they completed in order, and returns. */
  stop(): Promise<void>;
}

export interface GroupLag {
  topic: string;
  partition: number;
  /** The next offset the group will read (Kafka semantics); 0 when it has committed nothing. */
  committed: number;
  /** The offset the next appended record will get (the high watermark). Lag is end - committed. */
  end: number;
}

/**
 * The event log: topics with partitions, keyed records, offsets and consumer groups. Records with the same key
 * land in the same partition, so they are consumed in append order.
 */
export interface EventLog {
  ensureTopics(topics: TopicSpec[]): Promise<void>;
  /** Resolves only when every record is durably appended (survives kill -9). */
  append(topic: string, records: OutgoingRecord[]): Promise<AppendResult[]>;
  consume(options: ConsumerOptions): Promise<Consumer>;
  /** Moves a group's committed offsets on every partition of a topic; the group must not be running. */
  resetOffsets(group: string, topic: string, to: OffsetPosition): Promise<void>;
  /** Committed offset vs end offset per partition: what is still to be processed. */
  lag(group: string, topic: string): Promise<GroupLag[]>;
  /** Reads records without a consumer group (replay tooling, export, tests). */
  read(topic: string, partition: number, fromOffset: number, maxRecords: number): Promise<LogRecord[]>;
  partitionsOf(topic: string): Promise<number>;
  close(): Promise<void>;
}
