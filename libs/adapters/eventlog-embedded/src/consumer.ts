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

/**
 * One consumer of a group: a loop per assigned partition. Each loop hands batches to the handler strictly one
 * after another, in offset order, and commits after the handler resolves; loops of different partitions run
 * concurrently. A rejected batch is delivered again, unchanged, after a jittered backoff.
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
    let pending: LogRecord[] = [];
    let failures = 0;
    while (!this.stopping.fired) {
      try {
        // A failed batch is retried as it was, not re-read: redelivery means the same records, not more.
        if (pending.length === 0) pending = this.host.readBatch(topic, partition, position, this.maxBatchSize);
      } catch (error) {
        log.error('reading the partition failed', { code: errorCode(error), error: errorMessage(error) });
        await sleepUnless(backoffDelay(failures++, this.backoff()), this.stopping);
        continue;
      }
      if (pending.length === 0) {
        await this.host.wakeups.wait(topic, partition, this.host.pollIntervalMs, this.stopping);
        continue;
      }
      const first = pending[0]!.offset;
      try {
        await this.handler(pending);
      } catch (error) {
        failures++;
        log.warn('batch handler failed; the batch will be delivered again', {
          fromOffset: first, records: pending.length, attempt: failures, code: errorCode(error), error: errorMessage(error),
        });
        await sleepUnless(backoffDelay(failures, this.backoff()), this.stopping);
        continue;
      }
      failures = 0;
      position = pending[pending.length - 1]!.offset + 1;
      pending = [];
      try {
        await this.host.commit(this.group, topic, partition, position);
      } catch (error) {
        // The records are handled; if the commit never lands they are delivered again after a restart.
        log.error('committing the group offset failed', { offset: position, code: errorCode(error), error: errorMessage(error) });
      }
    }
  }

  private backoff() {
    return { initialDelayMs: this.host.retryInitialMs, maxDelayMs: this.host.retryMaxMs, factor: 2 };
  }
}
