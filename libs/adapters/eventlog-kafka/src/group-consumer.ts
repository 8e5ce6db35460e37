import { backoffDelay, errorCode, errorMessage, type Logger } from '@memory/platform';
import type { BatchHandler, Consumer, LogRecord } from '@memory/ports';
import type { Consumer as KafkaConsumer, EachBatchPayload } from 'kafkajs';
import { setTimeout as sleep } from 'node:timers/promises';
import { mapKafkaError } from './error-map.js';
import { batchSizes } from './positions.js';
import { toLogRecord } from './records.js';

export interface GroupSettings {
  group: string;
  topics: string[];
  handler: BatchHandler;
  maxBatchSize: number;
  /** How many partitions are handled at the same time (each one still strictly in order). */
  concurrency: number;
  /** Used only for a partition where nothing is committed yet (the log pins new groups before they start). */
  fromBeginning: boolean;
  heartbeatIntervalMs: number;
  retryInitialMs: number;
  retryMaxMs: number;
}

/** A batch the handler rejected: it is delivered again from `offset`, with the same `size`. */
interface Redelivery {
  offset: number;
  size: number;
  failures: number;
}

const COMMIT_ATTEMPTS = 3;
/** Between tries to remove a member id held before a restart, while the broker is still away. */
const STALE_MEMBER_BACKOFF = { initialDelayMs: 200, maxDelayMs: 2_000, factor: 2 };

/**
 * One consume() call: one kafkajs consumer in the group, auto-commit off. kafkajs hands over what one fetch
 * returned for one partition; this cuts it into handler batches, commits each batch's next offset after the
 * handler resolves, and on a rejection commits nothing, pauses the partition for a jittered backoff and lets the
 * next fetch start again at the first unhandled record (kafkajs fetches from the last resolved offset).
 */
export class KafkaGroupConsumer implements Consumer {
  private readonly redeliveries = new Map<string, Redelivery>();
  private readonly resumeTimers = new Set<NodeJS.Timeout>();
  private stopped?: Promise<void>;
  private readonly stopping = new AbortController();
  /** The member id of the group's current generation, as kafkajs last joined it. */
  private memberId?: string;
  private readonly logger: Logger;

  /** `leaveGroup` removes a member id from the group; it resolves false when the coordinator no longer knows it. */
  constructor(
    private readonly consumer: KafkaConsumer,
    readonly settings: GroupSettings,
    logger: Logger,
    private readonly onStopped: (consumer: KafkaGroupConsumer) => void,
    private readonly leaveGroup: (memberId: string) => Promise<boolean>,
  ) {
    this.logger = logger.child({ group: settings.group });
  }

  /**
   * Joins the group and starts fetching. Resolves once kafkajs has joined, or is retrying a join that failed for
   * a passing reason; rejects when the join failed for good (the broker refused the group's settings, say).
   */
  async start(): Promise<void> {
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: this.settings.topics, fromBeginning: this.settings.fromBeginning });
    let starting = true;
    let fatal: Error | undefined;
    this.consumer.on(this.consumer.events.GROUP_JOIN, ({ payload }) => {
      this.memberId = payload.memberId;
    });
    // kafkajs reports a failed join through its crash event, not by rejecting run(); later crashes only here.
    this.consumer.on(this.consumer.events.CRASH, ({ payload: { error, restart } }) => {
      if (restart) {
        this.logger.warn('the Kafka consumer failed and restarts', { code: mapKafkaError(error, 'consuming').code, error: errorMessage(error) });
        const stale = this.memberId;
        this.memberId = undefined;
        if (stale) void this.removeStaleMember(stale);
      }
      else if (starting) fatal ??= error;
      else this.logger.error('the Kafka consumer stopped after an error; it will not consume again until restarted', { code: mapKafkaError(error, 'consuming').code, error: errorMessage(error) });
    });
    await this.consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.settings.concurrency,
      eachBatch: (payload) => this.onFetched(payload),
    });
    starting = false;
    if (fatal) throw fatal;
  }

  stop(): Promise<void> {
    this.stopped ??= (async () => {
      this.stopping.abort();
      try {
        // kafkajs stops fetching, waits for the batch in flight (whose commit runs inside it), leaves the group.
        await this.consumer.disconnect();
      } catch (error) {
        this.logger.warn('stopping the Kafka consumer failed', { error: errorMessage(error) });
      } finally {
        for (const timer of this.resumeTimers) clearTimeout(timer);
        this.resumeTimers.clear();
        this.onStopped(this);
      }
    })();
    return this.stopped;
  }

  /**
   * kafkajs rejoins after a crash under a new member id, and its leave of the old one failed with the connection
   * (a broker restart, say). The coordinator keeps the old member, restored from __consumer_offsets after a
   * restart, and the rejoin waits for it until its session times out (sessionTimeoutMs) with nothing consumed.
   * Nothing uses the old id any more (kafkajs dropped that group session), so it is removed here as soon as the
   * coordinator answers. Its partitions go to the new member, which reads from the committed offsets.
   */
  private async removeStaleMember(memberId: string): Promise<void> {
    const { signal } = this.stopping;
    for (let attempt = 0; !signal.aborted; attempt++) {
      try {
        const removed = await this.leaveGroup(memberId);
        this.logger.info(removed ? 'removed the member id this consumer held before its restart' : 'the member id held before the restart was gone already', { memberId });
        return;
      } catch (error) {
        if (signal.aborted) return;
        const mapped = mapKafkaError(error, `removing member ${memberId}`);
        if (!mapped.retriable) {
          this.logger.warn('could not remove the member id held before the restart; the group waits for its session to time out', { memberId, code: mapped.code, error: mapped.message });
          return;
        }
        await sleep(backoffDelay(attempt, STALE_MEMBER_BACKOFF), undefined, { signal }).catch(() => undefined);
      }
    }
  }

  private async onFetched(payload: EachBatchPayload): Promise<void> {
    const { topic, partition } = payload.batch;
    const slot = `${topic}\u0000${partition}`;
    const records = payload.batch.messages.map((message) => toLogRecord(topic, partition, message));
    let redelivery = this.redeliveries.get(slot);
    if (redelivery && records[0]?.offset !== redelivery.offset) {
      // The position moved (a rebalance, a reset): the failed batch is not what comes next any more.
      this.redeliveries.delete(slot);
      redelivery = undefined;
    }
    let start = 0;
    for (const size of batchSizes(records.length, this.settings.maxBatchSize, redelivery?.size)) {
      // stop() lets the batch in flight finish; the rest of this fetch is left for the next run.
      if (!payload.isRunning() || payload.isStale()) return;
      const batch = records.slice(start, (start += size));
      if (!(await this.handle(batch, payload))) return;
      this.redeliveries.delete(slot);
      const last = batch[batch.length - 1]!.offset;
      payload.resolveOffset(String(last));
      await this.commit(payload, topic, partition, last + 1);
    }
  }

  /** Runs the handler, heartbeating meanwhile so a long batch does not cost the group membership. */
  private async handle(batch: LogRecord[], payload: EachBatchPayload): Promise<boolean> {
    const beat = setInterval(() => payload.heartbeat().catch(() => undefined), this.settings.heartbeatIntervalMs);
    try {
      await this.settings.handler(batch);
      return true;
    } catch (error) {
      this.scheduleRedelivery(batch, payload, error);
      return false;
    } finally {
      clearInterval(beat);
    }
  }

  private scheduleRedelivery(batch: LogRecord[], payload: EachBatchPayload, error: unknown): void {
    const { topic, partition, offset } = batch[0]!;
    const slot = `${topic}\u0000${partition}`;
    const failures = (this.redeliveries.get(slot)?.failures ?? 0) + 1;
    this.redeliveries.set(slot, { offset, size: batch.length, failures });
    const delayMs = backoffDelay(failures - 1, { initialDelayMs: this.settings.retryInitialMs, maxDelayMs: this.settings.retryMaxMs, factor: 2 });
    this.logger.warn('batch handler failed; the batch will be delivered again', {
      topic, partition, fromOffset: offset, records: batch.length, attempt: failures, delayMs, code: errorCode(error), error: errorMessage(error),
    });
    // Pausing only this partition keeps the others flowing while it waits; nothing was resolved, so the next fetch
    // after the resume starts at `offset` again.
    const resume = payload.pause();
    const timer = setTimeout(() => {
      this.resumeTimers.delete(timer);
      resume();
    }, delayMs);
    this.resumeTimers.add(timer);
  }

  /**
   * Commits `next` (Kafka's "next offset to read") for one partition. The records are handled whatever happens
   * here: if the commit never lands (a rebalance took the partition), they are delivered again, at-least-once.
   */
  private async commit(payload: EachBatchPayload, topic: string, partition: number, next: number): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await payload.commitOffsetsIfNecessary({ topics: [{ topic, partitions: [{ partition, offset: String(next) }] }] });
        return;
      } catch (error) {
        const mapped = mapKafkaError(error, `committing ${topic}/${partition} at ${next}`);
        if (!mapped.retriable || mapped.code === 'EVENTLOG.REBALANCING' || attempt >= COMMIT_ATTEMPTS) {
          this.logger.error('committing the group offset failed; the records will be delivered again after a restart or rebalance', {
            topic, partition, offset: next, code: mapped.code, error: mapped.message,
          });
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, backoffDelay(attempt, { initialDelayMs: 50, maxDelayMs: 1_000, factor: 2 })));
      }
    }
  }
}
