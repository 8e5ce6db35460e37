import { backoffDelay, errorCode, errorMessage, type Logger } from '@memory/platform';
import type { BatchHandler, Consumer, LogRecord } from '@memory/ports';
import { PartitionAssigners, type ConsumerRunConfig, type Consumer as KafkaConsumer, type EachBatchPayload, type PartitionAssigner } from 'kafkajs';
import { setTimeout as sleep } from 'node:timers/promises';
import { mapKafkaError } from './error-map.js';
import { batchSizes } from './positions.js';
import { toLogRecord } from './records.js';

export interface GroupSettings {
  group: string;
  topics: string[];
  handler: BatchHandler;
  maxBatchSize: number;
  /** Batches of one partition handed to the handler and not yet committed, at most (ConsumerOptions). */
  batchesInFlight: number;
  /** How many partitions are handled at the same time (each one still strictly in order). */
  concurrency: number;
  /** Used only for a partition where nothing is committed yet (the log pins new groups before they start). */
  fromBeginning: boolean;
  heartbeatIntervalMs: number;
  /** The group's rebalance timeout (kafkajs rebalanceTimeout): how long a rejoin may wait for the batches in flight. */
  rebalanceTimeoutMs: number;
  retryInitialMs: number;
  retryMaxMs: number;
}

/** A batch the handler rejected: it is delivered again from `offset`, with the same `size`. */
interface Redelivery {
  offset: number;
  size: number;
}

/** A batch handed to the handler and not yet committed. */
interface InFlight {
  records: LogRecord[];
  state: 'running' | 'done' | 'failed';
  error?: unknown;
}

/**
 * One partition as this consumer holds it in one group generation: the records fetched and not yet handed over
 * (`buffer`), the batches handed over and not yet committed (`window`), in offset order.
 */
interface Lane {
  topic: string;
  partition: number;
  buffer: LogRecord[];
  window: InFlight[];
  /** The last fetch's kafkajs handle: its heartbeat and commit serve the lane's batches after the fetch returned. */
  payload: EachBatchPayload;
  /** The offset after the last record taken from a fetch: where the next fetch must start. */
  next?: number;
  redelivery?: Redelivery;
  /** Handler failures in a row, for the backoff. */
  failures: number;
  /** A batch failed: nothing is handed over until the batches in flight settle and the backoff ends. */
  failing: boolean;
  /** Commits of this lane, one after another, so an earlier offset never lands after a later one. */
  commits: Promise<void>;
  /** False once a rebalance (or stop) gave the partition a new lane: this one only finishes and commits. */
  current: boolean;
  /** The group generation (as counted here) the lane was opened in: it commits only while that one lasts. */
  generation: number;
}

/**
 * Holds every join of one kafkajs consumer to its group (its first, its rejoin after a rebalance, after a crash or
 * after stale metadata) until the member's batches in flight settled. kafkajs rejoins as soon as it sees a rebalance
 * (a heartbeat after a fetch or a batch answered REBALANCE_IN_PROGRESS) and never waits for the handlers, which run
 * past the eachBatch call; without the gate, the partitions of those handlers could go to another member while they
 * still ran, and their commits land afterwards, in the new generation, under the new owner's. Every kafkajs join
 * starts by looking up the coordinator on the consumer's own cluster, the one its partition assigners are made with:
 * the gate sits there. Until the member joins, the coordinator completes no new generation (it waits for every
 * member, up to the rebalance timeout), so no other member is given a partition meanwhile.
 */
export class JoinGate {
  private before: () => Promise<void> = () => Promise.resolve();

  /**
   * The consumer's partition assigner (kafkajs partitionAssigners: [gate.assigner]): kafkajs's round robin, under its
   * own name so members of older builds still agree on it, made with the consumer's cluster, whose coordinator
   * lookup waits for the gate first. A gate serves one consumer.
   */
  readonly assigner: PartitionAssigner = (config) => {
    const { cluster } = config;
    const findCoordinator = cluster.findGroupCoordinator.bind(cluster);
    cluster.findGroupCoordinator = async (group) => {
      await this.before();
      return findCoordinator(group);
    };
    return PartitionAssigners.roundRobin(config);
  };

  /** What each join waits for. */
  hold(before: () => Promise<void>): void {
    this.before = before;
  }
}

const COMMIT_ATTEMPTS = 3;
/** Between tries to remove a member id held before a restart, while the broker is still away. */
const STALE_MEMBER_BACKOFF = { initialDelayMs: 200, maxDelayMs: 2_000, factor: 2 };

/**
 * One consume() call: one kafkajs consumer in the group, auto-commit off. What a fetch returns for a partition
 * goes into its lane's buffer, and the fetch position moves past it (resolveOffset, which with auto-commit off only
 * says where the next fetch starts: nothing is committed but the explicit commits here); the partition is paused
 * while its buffer is not empty, so a partition's records are fetched again only once they are handed over. The
 * buffer is cut into batches, and up to `batchesInFlight` of them are with the handler at once; each batch's end is
 * committed once it and every earlier batch of the lane resolved. On a rejection nothing more is handed over; once
 * the lane's batches in flight settled, the consumer seeks back to the failed batch and resumes the partition
 * after a jittered backoff, so it and everything after it are fetched and delivered again.
 *
 * A rebalance: before the member joins the group again (JoinGate), nothing more is handed over, the buffers are
 * dropped, and the join waits until every batch in flight settled and its commit landed, in the old generation,
 * while the member still owns its partitions (a broker takes commits of the current generation until the new one
 * is formed). So a partition is never handled by two members at once, and a member never commits for a partition
 * it has given up. The new generation fetches from the committed offsets.
 */
export class KafkaGroupConsumer implements Consumer {
  private readonly lanes = new Map<string, Lane>();
  /** Handler runs and commits not yet settled, of current and replaced lanes: stop() waits for them all. */
  private readonly pending = new Set<Promise<unknown>>();
  private readonly resumeTimers = new Set<NodeJS.Timeout>();
  private stopped?: Promise<void>;
  private readonly stopping = new AbortController();
  /** The member id of the group's current generation, as kafkajs last joined it. */
  private memberId?: string;
  /** runAgain is under way. */
  private rerunning = false;
  /** Crashes kafkajs did not restart from, so far: runAgain sees whether its run ended in one. */
  private unrestartedCrashes = 0;
  /** Group generations joined so far; a lane commits only in the one it was opened in. */
  private generation = 0;
  /** A join is coming (JoinGate): nothing is taken from fetches or handed over until it is done. */
  private draining = false;
  /** The partitions of each topic the last join gave this member. */
  private assignment = new Map<string, Set<number>>();
  private readonly logger: Logger;

  /** `leaveGroup` removes a member id from the group; it resolves false when the coordinator no longer knows it. */
  constructor(
    private readonly consumer: KafkaConsumer,
    readonly settings: GroupSettings,
    logger: Logger,
    private readonly onStopped: (consumer: KafkaGroupConsumer) => void,
    private readonly leaveGroup: (memberId: string) => Promise<boolean>,
    gate: JoinGate,
  ) {
    this.logger = logger.child({ group: settings.group });
    gate.hold(() => this.beforeJoin());
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
      // A new generation fetches from the committed offsets: what the old lanes buffered is dropped (it comes again)
      // and the partitions resumed. The old lanes' batches settled and committed before the join (beforeJoin).
      this.generation += 1;
      this.assignment = new Map(Object.entries(payload.memberAssignment).map(([topic, partitions]) => [topic, new Set(partitions)]));
      this.retireLanes(true);
      this.draining = false;
    });
    // kafkajs reports a failed join through its crash event, not by rejecting run(); later crashes only here.
    this.consumer.on(this.consumer.events.CRASH, ({ payload: { error, restart } }) => {
      if (starting && !restart) {
        fatal ??= error;
        return;
      }
      const code = mapKafkaError(error, 'consuming').code;
      if (restart) this.logger.warn('the Kafka consumer failed and restarts', { code, error: errorMessage(error) });
      else this.logger.error('the Kafka consumer stopped after an error kafkajs does not retry; starting it again', { code, error: errorMessage(error) });
      const stale = this.memberId;
      this.memberId = undefined;
      if (stale) void this.removeStaleMember(stale);
      if (!restart) {
        this.unrestartedCrashes += 1;
        void this.runAgain();
      }
    });
    await this.consumer.run(this.runConfig());
    starting = false;
    if (fatal) throw fatal;
  }

  private runConfig(): ConsumerRunConfig {
    return {
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.settings.concurrency,
      eachBatch: (payload) => this.onFetched(payload),
    };
  }

  /**
   * After a crash kafkajs does not restart from (an error it counts as not retriable, such as a protocol error met
   * while rejoining a restarted broker), the consumer would stay stopped while the process runs on and its stage's
   * records pile up. It is started again here, after a backoff, until it runs; its join resumes every partition
   * and fetches from the committed offsets.
   */
  private async runAgain(): Promise<void> {
    if (this.rerunning) return;
    this.rerunning = true;
    const { signal } = this.stopping;
    try {
      for (let attempt = 0; !signal.aborted; attempt++) {
        await sleep(backoffDelay(attempt, { initialDelayMs: this.settings.retryInitialMs, maxDelayMs: this.settings.retryMaxMs, factor: 2 }), undefined, { signal }).catch(() => undefined);
        if (signal.aborted) return;
        const crashes = this.unrestartedCrashes;
        try {
          await this.consumer.connect();
          // A join that fails for good is a crash, reported before run() resolves.
          await this.consumer.run(this.runConfig());
        } catch (error) {
          this.logger.warn('starting the Kafka consumer again failed; trying again', { attempt: attempt + 1, code: mapKafkaError(error, 'consuming').code, error: errorMessage(error) });
          continue;
        }
        if (this.unrestartedCrashes === crashes) {
          this.logger.info('the Kafka consumer runs again', { attempt: attempt + 1 });
          return;
        }
      }
    } finally {
      this.rerunning = false;
    }
  }

  stop(): Promise<void> {
    this.stopped ??= (async () => {
      this.stopping.abort();
      try {
        // Nothing more is handed over (paused, so kafkajs does not fetch what onFetched would leave); the batches in
        // flight end and commit while the consumer is still in the group.
        for (const timer of this.resumeTimers) clearTimeout(timer);
        this.resumeTimers.clear();
        if (this.lanes.size > 0) this.steer('pause', () => this.consumer.pause(this.settings.topics.map((topic) => ({ topic }))));
        await this.settled();
        // kafkajs stops fetching, waits for the fetch in hand (which hands nothing over now), leaves the group.
        await this.consumer.disconnect();
      } catch (error) {
        this.logger.warn('stopping the Kafka consumer failed', { error: errorMessage(error) });
      } finally {
        this.onStopped(this);
      }
    })();
    return this.stopped;
  }

  /** Resolves once no handler run or commit is pending, however many were added meanwhile. */
  private async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work)).catch(() => undefined);
    return work;
  }

  /**
   * Runs before every join (JoinGate). The lanes hand nothing more over and drop their buffers (the new generation
   * fetches from the committed offsets), and the join waits for every batch in flight and every commit: a batch
   * that resolves meanwhile is committed in the generation that handed it over, while this member still owns its
   * partition; one that fails is not (its partition is fetched from the failed batch again, here or elsewhere).
   * The coordinator waits for this member's join up to the group's rebalance timeout: a member that takes longer
   * is dropped from the group and its partitions go to the others while its batches still run, which is why the
   * rebalance timeout must exceed the longest batch (KafkaEventLogOptions.rebalanceTimeoutMs). Meanwhile the
   * batches' own heartbeats keep the member's session (the coordinator answers them REBALANCE_IN_PROGRESS).
   */
  private async beforeJoin(): Promise<void> {
    this.draining = true;
    this.retireLanes(false);
    if (this.pending.size === 0) return;
    const started = Date.now();
    this.logger.info('rejoining the group once the batches in flight settled', { pending: this.pending.size });
    await this.settled();
    const waitedMs = Date.now() - started;
    if (waitedMs > this.settings.rebalanceTimeoutMs) {
      this.logger.warn('the batches in flight outlasted the rebalance timeout: the group may have handed their partitions to another member meanwhile', {
        waitedMs, rebalanceTimeoutMs: this.settings.rebalanceTimeoutMs,
      });
    } else {
      this.logger.info('the batches in flight settled; rejoining the group', { waitedMs });
    }
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
    // A fetch made before a seek, or after stop(): nothing is taken, so the next fetch starts where it should.
    if (this.stopping.signal.aborted || payload.isStale() || !payload.isRunning()) return;
    if (this.draining) {
      // A join is coming (kafkajs may fetch on from another broker while one fetcher rejoins): nothing is taken,
      // and the partition waits for the join, which resumes it.
      this.steer('pause', () => this.consumer.pause([{ topic, partitions: [partition] }]));
      return;
    }
    // A fetch sent before the last join, for a partition that join gave to another member.
    if (!this.assignment.get(topic)?.has(partition)) return;
    const records = payload.batch.messages.map((message) => toLogRecord(topic, partition, message));
    if (records.length === 0) return;
    const slot = `${topic}\u0000${partition}`;
    let lane = this.lanes.get(slot);
    if (lane?.failing) return;
    if (lane && lane.next !== undefined && records[0]!.offset !== lane.next) {
      // The position moved (a reset, a rebalance not yet seen here): what the lane held is not what comes next.
      lane.current = false;
      lane.buffer = [];
      lane = undefined;
    }
    if (!lane) {
      lane = { topic, partition, buffer: [], window: [], payload, failures: 0, failing: false, commits: Promise.resolve(), current: true, generation: this.generation };
      this.lanes.set(slot, lane);
    }
    if (lane.redelivery && records[0]!.offset !== lane.redelivery.offset) lane.redelivery = undefined;
    lane.payload = payload;
    lane.buffer.push(...records);
    lane.next = records.at(-1)!.offset + 1;
    payload.resolveOffset(String(records.at(-1)!.offset));
    this.pump(lane);
  }

  /** Hands the lane's buffered records over while its window has room; pauses the partition while some are left. */
  private pump(lane: Lane): void {
    while (lane.current && !lane.failing && !this.stopping.signal.aborted && lane.buffer.length > 0 && lane.window.length < this.settings.batchesInFlight) {
      const [size] = batchSizes(lane.buffer.length, this.settings.maxBatchSize, lane.redelivery?.size);
      lane.redelivery = undefined;
      const batch: InFlight = { records: lane.buffer.splice(0, size), state: 'running' };
      lane.window.push(batch);
      void this.track(this.handle(batch, lane.payload).then(() => this.advance(lane)));
    }
    if (!lane.current || this.stopping.signal.aborted) return;
    const partitions = [{ topic: lane.topic, partitions: [lane.partition] }];
    if (lane.buffer.length > 0 || lane.failing) this.steer('pause', () => this.consumer.pause(partitions));
    else this.steer('resume', () => this.consumer.resume(partitions));
  }

  /** Runs the handler, heartbeating meanwhile so a long batch does not cost the group membership. */
  private async handle(batch: InFlight, payload: EachBatchPayload): Promise<void> {
    const beat = setInterval(() => payload.heartbeat().catch(() => undefined), this.settings.heartbeatIntervalMs);
    try {
      await this.settings.handler(batch.records);
      batch.state = 'done';
    } catch (error) {
      batch.state = 'failed';
      batch.error = error;
    } finally {
      clearInterval(beat);
    }
  }

  /** After a batch settled: commits the lane's resolved prefix, then hands more over or, after a failure, seeks back. */
  private advance(lane: Lane): void {
    let done: InFlight | undefined;
    while (lane.window[0]?.state === 'done') done = lane.window.shift();
    if (done) {
      lane.failures = 0;
      const next = done.records.at(-1)!.offset + 1;
      const { payload } = lane;
      lane.commits = this.track(lane.commits.then(() => this.commit(lane, payload, next)));
    }
    if (lane.window.some((batch) => batch.state === 'failed')) {
      lane.failing = true;
      if (lane.current && !this.stopping.signal.aborted) this.steer('pause', () => this.consumer.pause([{ topic: lane.topic, partitions: [lane.partition] }]));
      if (lane.window.some((batch) => batch.state === 'running')) return;
      this.scheduleRedelivery(lane, lane.window[0]!);
      return;
    }
    this.pump(lane);
  }

  /**
   * The lane's head batch failed and nothing of the lane is in flight any more: the next fetch starts at that batch
   * (seek, which with auto-commit off moves only the fetch position) after a backoff, and it is handed over with
   * its size again; the batches after it are fetched and delivered again behind it.
   */
  private scheduleRedelivery(lane: Lane, failed: InFlight): void {
    const { topic, partition } = lane;
    const offset = failed.records[0]!.offset;
    lane.failures += 1;
    lane.window = [];
    lane.buffer = [];
    lane.redelivery = { offset, size: failed.records.length };
    lane.next = offset;
    const delayMs = backoffDelay(lane.failures - 1, { initialDelayMs: this.settings.retryInitialMs, maxDelayMs: this.settings.retryMaxMs, factor: 2 });
    this.logger.warn('batch handler failed; the batch will be delivered again', {
      topic, partition, fromOffset: offset, records: failed.records.length, attempt: lane.failures, delayMs, code: errorCode(failed.error), error: errorMessage(failed.error),
    });
    if (!lane.current || this.stopping.signal.aborted) return;
    // Without the seek the next fetch would start past the failed batch: the lane stays paused instead.
    if (!this.steer('seek', () => this.consumer.seek({ topic, partition, offset: String(offset) }))) return;
    const timer = setTimeout(() => {
      this.resumeTimers.delete(timer);
      lane.failing = false;
      if (lane.current && !this.stopping.signal.aborted) this.steer('resume', () => this.consumer.resume([{ topic, partitions: [partition] }]));
    }, delayMs);
    this.resumeTimers.add(timer);
  }

  /**
   * Every lane stops handing over and drops its buffer; with `resume` (after a join), paused partitions are resumed
   * so the new generation fetches them.
   */
  private retireLanes(resume: boolean): void {
    for (const timer of this.resumeTimers) clearTimeout(timer);
    this.resumeTimers.clear();
    for (const lane of this.lanes.values()) {
      lane.current = false;
      lane.buffer = [];
    }
    this.lanes.clear();
    if (resume && !this.stopping.signal.aborted) this.steer('resume', () => this.consumer.resume(this.settings.topics.map((topic) => ({ topic }))));
  }

  /**
   * Pauses, resumes or seeks; false when kafkajs refused, which it does between a crash and its restart (no group
   * session then). Skipping is safe there: the restart's join resumes every partition and fetches from the
   * committed offsets, and an exception here would end a timer's callback, or the process.
   */
  private steer(action: 'pause' | 'resume' | 'seek', call: () => void): boolean {
    try {
      call();
      return true;
    } catch (error) {
      this.logger.warn(`could not ${action} partitions (the consumer is restarting); its next join decides`, { error: errorMessage(error) });
      return false;
    }
  }

  /**
   * Commits `next` (Kafka's "next offset to read") for one partition. The records are handled whatever happens
   * here: if the commit never lands (a rebalance took the partition), they are delivered again, at-least-once.
   * Not once the group moved to a new generation: kafkajs would send it with the new generation, which the broker
   * takes for any partition, and it could move back the offset of the member that owns the partition now.
   */
  private async commit(lane: Lane, payload: EachBatchPayload, next: number): Promise<void> {
    const { topic, partition } = lane;
    for (let attempt = 1; ; attempt++) {
      if (lane.generation !== this.generation) {
        this.logger.warn('not committing for a partition of an earlier group generation; its records will be delivered again', { topic, partition, offset: next });
        return;
      }
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
