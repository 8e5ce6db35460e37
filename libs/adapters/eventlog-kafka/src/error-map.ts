import { MemoryServiceError, errorMessage } from '@memory/platform';

type Mapping = readonly [code: string, retriable: boolean];

const UNAVAILABLE: Mapping = ['EVENTLOG.UNAVAILABLE', true];
const FORBIDDEN: Mapping = ['EVENTLOG.FORBIDDEN', false];
const INVALID_TOPIC: Mapping = ['EVENTLOG.INVALID_TOPIC', false];

/** Kafka protocol error types (as kafkajs names them) to our codes. Anything missing falls back on kafkajs's own retriable flag. */
const BY_PROTOCOL_TYPE: Record<string, Mapping> = {
  UNKNOWN_TOPIC_OR_PARTITION: ['EVENTLOG.UNKNOWN_TOPIC', false],
  TOPIC_ALREADY_EXISTS: ['EVENTLOG.TOPIC_EXISTS', false],
  INVALID_TOPIC_EXCEPTION: INVALID_TOPIC,
  INVALID_PARTITIONS: INVALID_TOPIC,
  INVALID_REPLICATION_FACTOR: INVALID_TOPIC,
  INVALID_REPLICA_ASSIGNMENT: INVALID_TOPIC,
  INVALID_CONFIG: INVALID_TOPIC,
  POLICY_VIOLATION: INVALID_TOPIC,
  TOPIC_DELETION_DISABLED: INVALID_TOPIC,
  MESSAGE_TOO_LARGE: ['EVENTLOG.RECORD_TOO_LARGE', false],
  RECORD_LIST_TOO_LARGE: ['EVENTLOG.RECORD_TOO_LARGE', false],
  INVALID_RECORD: ['EVENTLOG.INVALID_RECORD', false],
  CORRUPT_MESSAGE: ['EVENTLOG.INVALID_RECORD', true],
  INVALID_TIMESTAMP: ['EVENTLOG.INVALID_RECORD', false],
  OFFSET_OUT_OF_RANGE: ['EVENTLOG.INVALID_OFFSET', false],
  // A group with live members: resets and standalone commits must wait until it is stopped.
  NON_EMPTY_GROUP: ['EVENTLOG.GROUP_BUSY', false],
  UNKNOWN_MEMBER_ID: ['EVENTLOG.GROUP_BUSY', false],
  ILLEGAL_GENERATION: ['EVENTLOG.REBALANCING', true],
  REBALANCE_IN_PROGRESS: ['EVENTLOG.REBALANCING', true],
  INVALID_GROUP_ID: ['EVENTLOG.INVALID_CONSUMER', false],
  INVALID_SESSION_TIMEOUT: ['EVENTLOG.INVALID_CONSUMER', false],
  INCONSISTENT_GROUP_PROTOCOL: ['EVENTLOG.INVALID_CONSUMER', false],
  GROUP_MAX_SIZE_REACHED: ['EVENTLOG.GROUP_BUSY', true],
  TOPIC_AUTHORIZATION_FAILED: FORBIDDEN,
  GROUP_AUTHORIZATION_FAILED: FORBIDDEN,
  CLUSTER_AUTHORIZATION_FAILED: FORBIDDEN,
  TRANSACTIONAL_ID_AUTHORIZATION_FAILED: FORBIDDEN,
  SASL_AUTHENTICATION_FAILED: FORBIDDEN,
  UNSUPPORTED_SASL_MECHANISM: FORBIDDEN,
  ILLEGAL_SASL_STATE: FORBIDDEN,
  UNSUPPORTED_VERSION: ['EVENTLOG.UNSUPPORTED_BROKER', false],
  // The idempotent producer lost its sequence; the adapter starts a new producer and the append can be retried.
  OUT_OF_ORDER_SEQUENCE_NUMBER: ['EVENTLOG.WRITE_FAILED', true],
  INVALID_PRODUCER_EPOCH: ['EVENTLOG.WRITE_FAILED', true],
  UNKNOWN_PRODUCER_ID: ['EVENTLOG.WRITE_FAILED', true],
  INVALID_PRODUCER_ID_MAPPING: ['EVENTLOG.WRITE_FAILED', true],
  LEADER_NOT_AVAILABLE: UNAVAILABLE,
  NOT_LEADER_FOR_PARTITION: UNAVAILABLE,
  REPLICA_NOT_AVAILABLE: UNAVAILABLE,
  BROKER_NOT_AVAILABLE: UNAVAILABLE,
  REQUEST_TIMED_OUT: UNAVAILABLE,
  NETWORK_EXCEPTION: UNAVAILABLE,
  GROUP_LOAD_IN_PROGRESS: UNAVAILABLE,
  GROUP_COORDINATOR_NOT_AVAILABLE: UNAVAILABLE,
  NOT_COORDINATOR_FOR_GROUP: UNAVAILABLE,
  NOT_CONTROLLER: UNAVAILABLE,
  NOT_ENOUGH_REPLICAS: UNAVAILABLE,
  NOT_ENOUGH_REPLICAS_AFTER_APPEND: UNAVAILABLE,
  KAFKA_STORAGE_ERROR: UNAVAILABLE,
  FENCED_LEADER_EPOCH: UNAVAILABLE,
  UNKNOWN_LEADER_EPOCH: UNAVAILABLE,
  OFFSET_NOT_AVAILABLE: UNAVAILABLE,
  CONCURRENT_TRANSACTIONS: UNAVAILABLE,
  UNSTABLE_OFFSET_COMMIT: UNAVAILABLE,
};

/** kafkajs's client-side error classes (no protocol type) to our codes. */
const BY_ERROR_NAME: Record<string, Mapping> = {
  KafkaJSConnectionError: UNAVAILABLE,
  KafkaJSConnectionClosedError: UNAVAILABLE,
  KafkaJSRequestTimeoutError: UNAVAILABLE,
  KafkaJSNoBrokerAvailableError: UNAVAILABLE,
  KafkaJSBrokerNotFound: UNAVAILABLE,
  KafkaJSMetadataNotLoaded: UNAVAILABLE,
  KafkaJSTopicMetadataNotLoaded: UNAVAILABLE,
  KafkaJSGroupCoordinatorNotFound: UNAVAILABLE,
  KafkaJSStaleTopicMetadataAssignment: UNAVAILABLE,
  KafkaJSLockTimeout: UNAVAILABLE,
  KafkaJSTimeout: UNAVAILABLE,
  KafkaJSSASLAuthenticationError: FORBIDDEN,
  KafkaJSServerDoesNotSupportApiKey: ['EVENTLOG.UNSUPPORTED_BROKER', false],
  KafkaJSNotImplemented: ['EVENTLOG.UNSUPPORTED_BROKER', false],
  KafkaJSOffsetOutOfRange: ['EVENTLOG.INVALID_OFFSET', false],
};

interface KafkaJSErrorLike {
  name?: unknown;
  type?: unknown;
  retriable?: unknown;
  cause?: unknown;
  errors?: unknown;
  message?: unknown;
}

/**
 * The error kafkajs hides behind its retry and aggregate wrappers (and behind our mapping of it). kafkajs's retrier
 * wraps whatever an inner retrier gave up on in a KafkaJSNonRetriableError whose cause is the real failure (a
 * refused connection while the broker is down, say): that cause decides, not the wrapper's retriable=false.
 */
function innermost(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 5; depth++) {
    const e = current as KafkaJSErrorLike | null;
    if (current instanceof MemoryServiceError && current.cause) current = current.cause;
    else if ((e?.name === 'KafkaJSNumberOfRetriesExceeded' || e?.name === 'KafkaJSNonRetriableError') && e.cause && e.cause !== current) current = e.cause;
    else if (e?.name === 'KafkaJSAggregateError' && Array.isArray(e.errors) && e.errors.length > 0) current = e.errors[0];
    else break;
  }
  return current;
}

/**
 * Turns whatever kafkajs threw into a MemoryServiceError with a stable EVENTLOG.* code, keeping the original as
 * the cause. `doing` says what the adapter was doing, e.g. 'appending to memory.ingest.requested'.
 */
export function mapKafkaError(error: unknown, doing: string): MemoryServiceError {
  if (error instanceof MemoryServiceError) return error;
  const inner = innermost(error) as KafkaJSErrorLike | null;
  const type = typeof inner?.type === 'string' ? inner.type : undefined;
  const name = typeof inner?.name === 'string' ? inner.name : undefined;
  const isKafkaJS = name?.startsWith('KafkaJS') ?? false;
  const [code, retriable] =
    (type ? BY_PROTOCOL_TYPE[type] : undefined) ??
    (name ? BY_ERROR_NAME[name] : undefined) ??
    // An unknown broker complaint: trust kafkajs's judgement; anything else is a bug here, not worth retrying.
    (['EVENTLOG.BROKER_ERROR', isKafkaJS ? inner?.retriable !== false : false] as const);
  const details: Record<string, unknown> = {};
  if (name) details['kafkaError'] = name;
  if (type) details['kafkaType'] = type;
  return new MemoryServiceError(code, `${doing}: ${errorMessage(inner ?? error)}`, { retriable, details, cause: error });
}

/** The Kafka protocol error type behind a kafkajs error (e.g. 'OFFSET_OUT_OF_RANGE'), if there is one. */
export function kafkaErrorType(error: unknown): string | undefined {
  const type = (innermost(error) as KafkaJSErrorLike | null)?.type;
  return typeof type === 'string' ? type : undefined;
}
