import { MemoryServiceError } from '@memory/platform';
import type { TopicSpec } from '@memory/ports';
import type { ITopicConfig } from 'kafkajs';

/** Kafka's rule for topic names. */
const TOPIC_NAME = /^[A-Za-z0-9._-]{1,249}$/;

/**
 * The replicas that must have a record before the broker acknowledges an append (the producer asks for all of them,
 * acks=-1); the broker's default of 1 lets an acknowledged record rest on the leader alone, to be lost with it.
 * The rule is min(2, replicationFactor), because two copies are what survives one broker's loss (the port's promise)
 * and more would only stop writes with fewer brokers down, so with two replicas appends fail retriably while one
 * broker is down rather than being acknowledged on one copy, and with one replica there is nothing more to ask.
 */
export function minInsyncReplicas(replicationFactor: number): number {
  return Math.min(2, replicationFactor);
}

/** A topic as ensureTopics creates it: checked, with its partitions, replicas and config. */
export function topicConfig(spec: TopicSpec, options: { defaultPartitions: number; replicationFactor: number }): ITopicConfig {
  if (typeof spec?.name !== 'string' || !TOPIC_NAME.test(spec.name)) {
    throw new MemoryServiceError('EVENTLOG.INVALID_TOPIC', `a topic name is 1 to 249 of letters, digits, '.', '_' and '-', got "${String(spec?.name)}"`);
  }
  const partitions = spec.partitions || options.defaultPartitions;
  if (!Number.isInteger(partitions) || partitions < 1) {
    throw new MemoryServiceError('EVENTLOG.INVALID_TOPIC', `topic ${spec.name}: partitions must be a positive whole number, got ${spec.partitions}`);
  }
  if (spec.retentionMs !== undefined && (!Number.isInteger(spec.retentionMs) || spec.retentionMs < 1)) {
    throw new MemoryServiceError('EVENTLOG.INVALID_TOPIC', `topic ${spec.name}: retentionMs must be a positive whole number of ms, or absent to keep records forever`);
  }
  return {
    topic: spec.name,
    numPartitions: partitions,
    replicationFactor: options.replicationFactor,
    configEntries: [
      { name: 'retention.ms', value: String(spec.retentionMs ?? -1) },
      // The port promises the time the log appended the record, non-decreasing within a partition: the
      // broker's clock, not each producer's.
      { name: 'message.timestamp.type', value: 'LogAppendTime' },
      // Set only when the service creates a topic: an existing topic keeps its own (see ensureTopics).
      { name: 'min.insync.replicas', value: String(minInsyncReplicas(options.replicationFactor)) },
    ],
  };
}
