import { backoffDelay, errorCode, errorMessage, type Logger } from '@memory/platform';
import type { BatchHandler, Consumer, LogRecord } from '@memory/ports';
import { Latch, sleepUnless, type Wakeups } from './wakeups.js';

/** What a group consumer needs from the log that runs it. */
export interface ConsumerHost {
  readonly wakeups: Wakeups;
  readonly logger: Logger;
  readonly pollIntervalMs: number;
  readonly retryInitialMs: number;
  readonly retryMaxMs: number;
  readBatch(topic: string, partition: number, fromOffset: number, maxRecords: number): LogRecord[];
  commit(group: string, topic: string, partition: number, nextOffset: number): Promise<void>;
  /** Called once the consumer has stopped, so the group can be consumed again. */
  released(consumer: GroupConsumer): void;
}

export interface Assignment {
  topic: string;
  partition: number;
  /** Next offset to deliver. */
  position: number;
}

/** A batch handed to the handler and not yet committed. */
interface InFlight {
  records: LogRecord[];
  state: 'running' | 'done' | 'failed';
  error?: unknown;
}

/**
 * One consumer of a group: a loop per assigned partition. Each loop hands up to `batchesInFlight` batches of its
 * partition to the handler at a time, in offset order, and commits a batch's end once it and every earlier batch
 * resolved; loops of different partitions run concurrently. When a batch rejects, nothing new is handed over; once
 * every batch in flight has settled, the failed batch is delivered again, unchanged, after a jittered backoff, and
 * the batches after it are read again behind it.
 */
export class GroupConsumer implements Consumer {
  private readonly stopping = new Latch();
  private loops: Promise<void>[] = [];
  private stopped?: Promise<void>;

  constructor(
    private readonly host: ConsumerHost,
    readonly group: string,
    readonly topics: string[],
    private readonly handler: BatchHandler,
    private readonly maxBatchSize: number,
    private readonly batchesInFlight = 1,
  ) {}

  start(assignments: Assignment[]): void {
    this.loops = assignments.map((a) => this.run(a));
  }

  stop(): Promise<void> {
    if (!this.stopped) {
      this.stopping.fire();
      this.stopped = Promise.all(this.loops).then(() => this.host.released(this));
    }
    return this.stopped;
  }

  private async run({ topic, partition, position }: Assignment): Promise<void> {
    const log = this.host.logger.child({ group: this.group, topic, partition });
    const window: InFlight[] = [];
    /** Fires when a batch settles or the consumer stops; replaced at each turn of the loop. */
    let changed = new Latch();
    const unsubscribe = this.stopping.onFire(() => changed.fire());
    let next = position;
    let redelivery: LogRecord[] = [];
    let failures = 0;
    try {
      for (;;) {
        changed = new Latch();
        let committable: number | undefined;
        while (window[0]?.state === 'done') committable = window.shift()!.records.at(-1)!.offset + 1;
        if (committable !== undefined) {
          failures = 0;
          position = committable;
          await this.commit(log, topic, partition, position);
        }
        const running = window.some((batch) => batch.state === 'running');
        if (!running && window.length > 0) {
          // The head failed (done heads are committed above): it comes again as it was, not re-read (redelivery
          // means the same records, not more), and what followed it is read again behind it.
          const failed = window[0]!;
          failures++;
          log.warn('batch handler failed; the batch will be delivered again', {
            fromOffset: failed.records[0]!.offset, records: failed.records.length, attempt: failures, code: errorCode(failed.error), error: errorMessage(failed.error),
          });
          redelivery = failed.records;
          next = failed.records[0]!.offset;
          window.length = 0;
          await sleepUnless(backoffDelay(failures, this.backoff()), this.stopping);
          continue;
        }
        if (this.stopping.fired) {
          if (!running) return;
          await fired(changed);
          continue;
        }
        const failing = window.some((batch) => batch.state === 'failed');
        if (!failing && window.length < this.batchesInFlight) {
          let batch: LogRecord[];
          try {
            batch = redelivery.length > 0 ? redelivery : this.host.readBatch(topic, partition, next, this.maxBatchSize);
          } catch (error) {
            log.error('reading the partition failed', { code: errorCode(error), error: errorMessage(error) });
            await sleepUnless(backoffDelay(failures++, this.backoff()), this.stopping);
            continue;
          }
          redelivery = [];
          if (batch.length > 0) {
            window.push(this.handOver(batch, () => changed.fire()));
            next = batch.at(-1)!.offset + 1;
            continue;
          }
          // Nothing to read: wait for an append, or for a batch in flight to settle.
          await this.host.wakeups.wait(topic, partition, this.host.pollIntervalMs, changed);
          continue;
        }
        await fired(changed);
      }
    } finally {
      unsubscribe();
    }
  }

  private handOver(records: LogRecord[], settled: () => void): InFlight {
    const batch: InFlight = { records, state: 'running' };
    Promise.resolve()
      .then(() => this.handler(records))
      .then(
        () => (batch.state = 'done'),
        (error: unknown) => Object.assign(batch, { state: 'failed', error }),
      )
      .finally(settled);
    return batch;
  }

  private async commit(log: Logger, topic: string, partition: number, nextOffset: number): Promise<void> {
    try {
      await this.host.commit(this.group, topic, partition, nextOffset);
    } catch (error) {
      // The records are handled; if the commit never lands they are delivered again after a restart.
      log.error('committing the group offset failed', { offset: nextOffset, code: errorCode(error), error: errorMessage(error) });
    }
  }

  private backoff() {
    return { initialDelayMs: this.host.retryInitialMs, maxDelayMs: this.host.retryMaxMs, factor: 2 };
  }
}

function fired(latch: Latch): Promise<void> {
  return new Promise<void>((resolve) => latch.onFire(resolve));
}
