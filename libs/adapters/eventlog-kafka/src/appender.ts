import { MemoryServiceError, errorMessage, type Logger } from '@memory/platform';
import type { AppendResult } from '@memory/ports';
import type { Message, Producer, RecordMetadata } from 'kafkajs';
import { mapKafkaError } from './error-map.js';

type PartitionedMessage = Message & { partition: number };

interface PendingAppend {
  topic: string;
  messages: PartitionedMessage[];
  bytes: number;
  resolve(results: AppendResult[]): void;
  reject(error: unknown): void;
}

/** Appends coalesced into one produce request stop growing past this (the broker's default limit is ~1 MiB per batch). */
const FLUSH_BYTES = 512 * 1024;

/**
 * Sends appends to Kafka one produce request at a time, each carrying every append that queued up while the
 * previous one was in flight.
 *
 * One at a time, because kafkajs's idempotent producer numbers each partition's batches before it hands them to
 * the connection, and two concurrent sends can reach the broker in the other order, which the broker refuses as
 * out of sequence. Coalescing keeps the throughput that concurrency would have given: N concurrent appends cost
 * about two round trips, not N.
 */
export class Appender {
  private readonly queue: PendingAppend[] = [];
  private flushing?: Promise<void>;
  private producer?: Promise<Producer>;

  constructor(
    private readonly createProducer: () => Producer,
    private readonly logger: Logger,
  ) {}

  /** Connects the producer now, so a bad broker address fails at open rather than at the first append. */
  async connect(): Promise<void> {
    await this.connected();
  }

  append(topic: string, messages: PartitionedMessage[]): Promise<AppendResult[]> {
    const bytes = messages.reduce((sum, m) => sum + sizeOf(m), 0);
    return new Promise((resolve, reject) => {
      this.queue.push({ topic, messages, bytes, resolve, reject });
      this.kick();
    });
  }

  private kick(): void {
    if (this.flushing) return;
    this.flushing = this.flushAll().finally(() => {
      this.flushing = undefined;
      // An append may have queued between the last look at the queue and this line.
      if (this.queue.length > 0) this.kick();
    });
  }

  /** Waits for every queued append, then disconnects the producer. */
  async close(): Promise<void> {
    while (this.flushing) await this.flushing;
    const producer = this.producer;
    this.producer = undefined;
    if (producer) await producer.then((p) => p.disconnect()).catch(() => undefined);
  }

  private async flushAll(): Promise<void> {
    while (this.queue.length > 0) {
      let bytes = 0;
      let count = 0;
      while (count < this.queue.length && (count === 0 || bytes + this.queue[count]!.bytes <= FLUSH_BYTES)) bytes += this.queue[count++]!.bytes;
      const batch = this.queue.splice(0, count);
      try {
        await this.flush(batch);
      } catch (error) {
        for (const pending of batch) pending.reject(error); // a bug here must not strand the callers
      }
    }
  }

  private async flush(batch: PendingAppend[]): Promise<void> {
    // kafkajs keeps one entry per topic in a request (a second entry for the same topic replaces the first), so
    // appends are merged per topic, and each record remembers its place within its partition's run.
    const perTopic = new Map<string, PartitionedMessage[]>();
    const seen = new Map<string, number>();
    const places = batch.map(({ topic, messages }) =>
      messages.map((message) => {
        const slot = `${topic}\u0000${message.partition}`;
        const index = seen.get(slot) ?? 0;
        seen.set(slot, index + 1);
        const list = perTopic.get(topic) ?? [];
        list.push(message);
        perTopic.set(topic, list);
        return { topic, partition: message.partition, slot, index };
      }),
    );
    let acknowledged: RecordMetadata[];
    try {
      const producer = await this.connected();
      acknowledged = await producer.sendBatch({ acks: -1, topicMessages: [...perTopic].map(([topic, messages]) => ({ topic, messages })) });
    } catch (error) {
      const topics = [...perTopic.keys()].join(', ');
      const mapped = mapKafkaError(error, `appending to ${topics}`);
      this.logger.warn('a produce request failed; its appends are rejected', { topics, appends: batch.length, code: mapped.code, error: errorMessage(error) });
      // kafkajs may have counted sequence numbers for batches the broker never took; a new producer (a new
      // producer id) starts clean instead of failing every later append as out of sequence.
      await this.resetProducer();
      for (const pending of batch) pending.reject(mapped);
      return;
    }
    const baseOffsets = new Map(acknowledged.map((m) => [`${m.topicName}\u0000${m.partition}`, Number(m.baseOffset)]));
    batch.forEach((pending, i) => {
      const results: AppendResult[] = [];
      for (const place of places[i]!) {
        const base = baseOffsets.get(place.slot);
        if (base === undefined) {
          pending.reject(new MemoryServiceError('EVENTLOG.WRITE_FAILED', `the broker acknowledged no batch for ${place.topic}/${place.partition}`, { retriable: true }));
          return;
        }
        results.push({ topic: place.topic, partition: place.partition, offset: base + place.index });
      }
      pending.resolve(results);
    });
  }

  private connected(): Promise<Producer> {
    this.producer ??= (async () => {
      const producer = this.createProducer();
      await producer.connect();
      return producer;
    })();
    const pending = this.producer;
    pending.catch(() => {
      if (this.producer === pending) this.producer = undefined;
    });
    return pending;
  }

  private async resetProducer(): Promise<void> {
    const producer = this.producer;
    this.producer = undefined;
    if (producer) await producer.then((p) => p.disconnect()).catch(() => undefined);
  }
}

function sizeOf(message: Message): number {
  const value = message.value;
  return (Buffer.isBuffer(value) ? value.length : String(value ?? '').length) + String(message.key ?? '').length + 64;
}
