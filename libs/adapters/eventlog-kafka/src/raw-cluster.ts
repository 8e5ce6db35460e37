/**
 * Three requests the port needs that kafkajs's public API lacks, or only offers at a price the port cannot pay:
 *  - a Fetch without a consumer group (`read`): a kafkajs consumer must join a group first, hundreds of
 *    milliseconds per call, and replay tooling reads thousands of single records;
 *  - a standalone OffsetCommit (generation -1) into a group with no members (`resetOffsets`, and pinning where
 *    a new group starts): kafkajs's admin.setOffsets joins the group with a throwaway consumer and waits a full
 *    fetch cycle, several seconds per call;
 *  - a LeaveGroup for a member id the consumer held before kafkajs restarted it (`leaveGroup`): kafkajs rejoins
 *    under a new id and forgets the old one, which the coordinator keeps until its session times out.
 * Both go through the Cluster kafkajs builds for its own clients, reached by its private factory, so they share
 * the client's configuration, connections, retries and logging. kafkajs 2.2.4 is final (the project is no longer
 * maintained), and openKafkaEventLog checks the factory is there, failing at start if not.
 */
import { MemoryServiceError } from '@memory/platform';
import type { Kafka } from 'kafkajs';
import type { FetchedMessage } from './records.js';

interface RawFetchPartition {
  partition: number;
  errorCode: number;
  highWatermark: string;
  messages: Array<FetchedMessage & { isControlRecord?: boolean }>;
}

interface RawFetchResponse {
  responses: Array<{ topicName: string; partitions: RawFetchPartition[] }>;
}

interface RawTopicOffsets {
  topic: string;
  partitions: Array<{ partition: number; offset: string }>;
}

export interface RawBroker {
  fetch(request: {
    maxWaitTime: number;
    minBytes: number;
    maxBytes: number;
    isolationLevel: number;
    topics: Array<{ topic: string; partitions: Array<{ partition: number; fetchOffset: string; maxBytes: number }> }>;
  }): Promise<RawFetchResponse>;
  offsetCommit(request: { groupId: string; groupGenerationId: number; memberId: string; topics: RawTopicOffsets[] }): Promise<unknown>;
  leaveGroup(request: { groupId: string; memberId: string }): Promise<unknown>;
}

export interface RawCluster {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  addTargetTopic(topic: string): Promise<void>;
  refreshMetadata(): Promise<void>;
  findLeaderForPartitions(topic: string, partitions: number[]): Record<string, number[]>;
  findBroker(query: { nodeId: string }): Promise<RawBroker>;
  findGroupCoordinator(query: { groupId: string }): Promise<RawBroker>;
}

type ClusterFactory = (options: { metadataMaxAge?: number; allowAutoTopicCreation?: boolean }) => RawCluster;

const FACTORY_NAME = 'private:Kafka:createCluster';

/** kafkajs's own cluster factory on a client, or a clear error when this kafkajs has none. */
export function clusterFactoryOf(kafka: Kafka): ClusterFactory {
  const symbol = Object.getOwnPropertySymbols(kafka).find((s) => s.description === FACTORY_NAME);
  const factory = symbol ? (kafka as unknown as Record<symbol, unknown>)[symbol] : undefined;
  if (typeof factory !== 'function') {
    throw new MemoryServiceError(
      'EVENTLOG.UNSUPPORTED_CLIENT',
      'this kafkajs has no internal cluster factory; the Kafka event log is written against kafkajs 2.2.x',
    );
  }
  return factory as ClusterFactory;
}

/** Kafka's READ_COMMITTED: records of aborted transactions are never handed out. */
export const READ_COMMITTED = 1;
