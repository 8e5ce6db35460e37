import { ConfigError, createLogger, type Logger } from '@memory/platform';
import type { ISocketFactory } from 'kafkajs';

export interface KafkaEventLogOptions {
  /** Bootstrap brokers as 'host:port', e.g. ['127.0.0.1:9092'] (KAFKA_BROKERS split on commas). */
  brokers: string[];
  /** Sent with every request; shows up in broker logs and quotas. Default 'memory-service'. */
  clientId?: string;
  /** Replicas of each topic ensureTopics creates. Default 1 (one local broker); 3 in a real cluster. */
  replicationFactor?: number;
  /** Partitions for a TopicSpec that gives none (0 or missing). Default 8, as in the embedded log. */
  defaultPartitions?: number;
  /** Largest batch handed to a handler when a consumer gives no maxBatchSize. Default 256. */
  defaultMaxBatchSize?: number;
  /** TCP connect timeout per broker. Default 3000. */
  connectionTimeoutMs?: number;
  /** Timeout of one request to a broker. Default 30000. */
  requestTimeoutMs?: number;
  /** How often kafkajs retries one failed operation before the call fails (retriable). Default 5. */
  retries?: number;
  /** A consumer that stays silent this long is dropped from its group. Default 30000 (brokers allow >= 6000). */
  sessionTimeoutMs?: number;
  /** Heartbeats to the group coordinator, also sent while a long handler runs. Default 3000. */
  heartbeatIntervalMs?: number;
  /**
   * How long a rebalance waits for members to rejoin. A member rejoins only once its batches in flight settled and
   * committed (so that no partition is handled by two members at once): this must exceed the longest batch a handler
   * may take, retries included, or the group drops the slow member and hands its partitions to another while its
   * batches still run. A rebalance lasts as long as its slowest member's batches; a member that died is dropped
   * after sessionTimeoutMs whatever this says. Default 300000 (as Kafka's own consumer, max.poll.interval.ms).
   */
  rebalanceTimeoutMs?: number;
  /**
   * How long an idle fetch waits at the broker for new records. New records end the wait at once, so this does
   * not delay delivery; it bounds how long stop() waits for the fetch in flight. Default 1000.
   */
  maxWaitMs?: number;
  /** Backoff before a rejected batch is delivered again: full jitter, doubling from initial up to max. */
  retryInitialMs?: number;
  retryMaxMs?: number;
  /** kafkajs warnings and errors are bridged here; its info chatter is dropped. */
  logger?: Logger;
  /** Opens the TCP connections to the brokers (kafkajs's socketFactory); default a plain socket. The specs cut the network with it. */
  socketFactory?: ISocketFactory;
}

export type ResolvedOptions = Required<Omit<KafkaEventLogOptions, 'socketFactory'>> & Pick<KafkaEventLogOptions, 'socketFactory'>;

const BROKER = /^[^\s:/]+:\d{1,5}$/;

/** Checks every option before any connection opens, reporting all problems at once. */
export function resolveOptions(options: KafkaEventLogOptions): ResolvedOptions {
  const problems: string[] = [];
  const brokers = options?.brokers;
  if (!Array.isArray(brokers) || brokers.length === 0) {
    problems.push('brokers must be a non-empty list of host:port');
  } else {
    for (const broker of brokers) if (typeof broker !== 'string' || !BROKER.test(broker)) problems.push(`broker "${String(broker)}" is not host:port`);
  }
  const clientId = options?.clientId ?? 'memory-service';
  if (typeof clientId !== 'string' || !/^[A-Za-z0-9._-]+$/.test(clientId)) problems.push(`clientId must be letters, digits, '.', '_' or '-', got "${String(clientId)}"`);

  const whole = (name: keyof KafkaEventLogOptions, fallback: number, min: number): number => {
    const value = options?.[name] ?? fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
      problems.push(`${name} must be a whole number >= ${min}, got ${String(value)}`);
      return fallback;
    }
    return value;
  };
  const resolved: ResolvedOptions = {
    brokers: Array.isArray(brokers) ? [...brokers] : [],
    clientId,
    replicationFactor: whole('replicationFactor', 1, 1),
    defaultPartitions: whole('defaultPartitions', 8, 1),
    defaultMaxBatchSize: whole('defaultMaxBatchSize', 256, 1),
    connectionTimeoutMs: whole('connectionTimeoutMs', 3_000, 1),
    requestTimeoutMs: whole('requestTimeoutMs', 30_000, 1),
    retries: whole('retries', 5, 1),
    sessionTimeoutMs: whole('sessionTimeoutMs', 30_000, 1),
    heartbeatIntervalMs: whole('heartbeatIntervalMs', 3_000, 1),
    rebalanceTimeoutMs: whole('rebalanceTimeoutMs', 300_000, 1),
    maxWaitMs: whole('maxWaitMs', 1_000, 10),
    retryInitialMs: whole('retryInitialMs', 100, 1),
    retryMaxMs: whole('retryMaxMs', 5_000, 1),
    logger: options?.logger ?? createLogger({ component: 'eventlog-kafka' }),
    socketFactory: options?.socketFactory,
  };
  // The coordinator expects a few heartbeats per session; one per session would drop a healthy member.
  if (resolved.heartbeatIntervalMs * 3 > resolved.sessionTimeoutMs) {
    problems.push(`heartbeatIntervalMs (${resolved.heartbeatIntervalMs}) must be at most a third of sessionTimeoutMs (${resolved.sessionTimeoutMs})`);
  }
  if (resolved.retryMaxMs < resolved.retryInitialMs) problems.push(`retryMaxMs (${resolved.retryMaxMs}) must be >= retryInitialMs (${resolved.retryInitialMs})`);
  if (problems.length) throw new ConfigError(`invalid Kafka event log options: ${problems.join('; ')}`, { problems });
  return resolved;
}

/** Splits a KAFKA_BROKERS value ('h1:9092,h2:9092') into the brokers option. */
export function brokersFrom(value: string): string[] {
  return value
    .split(',')
    .map((broker) => broker.trim())
    .filter(Boolean);
}
