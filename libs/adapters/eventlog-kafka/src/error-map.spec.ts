import { createRequire } from 'node:module';
import { expect } from 'chai';
import {
  KafkaJSAggregateError, KafkaJSConnectionError, KafkaJSNonRetriableError, KafkaJSNumberOfRetriesExceeded, KafkaJSProtocolError,
} from 'kafkajs';
import { MemoryServiceError } from '@memory/platform';
import { kafkaErrorType, mapKafkaError } from './error-map.js';

type Retrier = <T>(fn: (bail: (error: Error) => void, retryCount: number) => Promise<T>) => Promise<T>;
/** kafkajs's own retrier (not exported by the package), so the wrappers below are the ones kafkajs really builds. */
const createRetry = createRequire(import.meta.url)('kafkajs/src/retry/index.js') as (options: Record<string, number>) => Retrier;

const protocolError = (type: string, retriable: boolean) =>
  new KafkaJSProtocolError({ message: `broker says ${type}`, type, code: 0, retriable } as never);

describe('mapKafkaError', () => {
  it('maps broker error types to stable codes, with retriable flags of our own', () => {
    const cases: Array<[string, boolean, string, boolean]> = [
      ['UNKNOWN_TOPIC_OR_PARTITION', true, 'EVENTLOG.UNKNOWN_TOPIC', false],
      ['MESSAGE_TOO_LARGE', false, 'EVENTLOG.RECORD_TOO_LARGE', false],
      ['NOT_LEADER_FOR_PARTITION', true, 'EVENTLOG.UNAVAILABLE', true],
      ['REBALANCE_IN_PROGRESS', true, 'EVENTLOG.REBALANCING', true],
      ['UNKNOWN_MEMBER_ID', true, 'EVENTLOG.GROUP_BUSY', false],
      ['TOPIC_AUTHORIZATION_FAILED', false, 'EVENTLOG.FORBIDDEN', false],
      ['OUT_OF_ORDER_SEQUENCE_NUMBER', false, 'EVENTLOG.WRITE_FAILED', true],
      ['UNSUPPORTED_VERSION', false, 'EVENTLOG.UNSUPPORTED_BROKER', false],
    ];
    for (const [type, kafkaRetriable, code, retriable] of cases) {
      const mapped = mapKafkaError(protocolError(type, kafkaRetriable), 'doing x');
      expect(mapped, type).to.be.instanceOf(MemoryServiceError);
      expect(mapped, type).to.include({ code, retriable });
      expect(mapped.message).to.equal(`doing x: broker says ${type}`);
      expect(mapped.details).to.deep.equal({ kafkaError: 'KafkaJSProtocolError', kafkaType: type });
    }
  });

  it("looks through kafkajs's retry and aggregate wrappers, keeping the wrapper as the cause", () => {
    const inner = protocolError('LEADER_NOT_AVAILABLE', true);
    const exhausted = new KafkaJSNumberOfRetriesExceeded(inner, { retryCount: 5, retryTime: 100 } as never);
    const mapped = mapKafkaError(exhausted, 'appending');
    expect(mapped).to.include({ code: 'EVENTLOG.UNAVAILABLE', retriable: true });
    expect(mapped.cause).to.equal(exhausted);
    const aggregate = new KafkaJSAggregateError('many', [protocolError('TOPIC_ALREADY_EXISTS', false)]);
    expect(mapKafkaError(aggregate, 'creating')).to.include({ code: 'EVENTLOG.TOPIC_EXISTS' });
    expect(kafkaErrorType(exhausted)).to.equal('LEADER_NOT_AVAILABLE');
    expect(kafkaErrorType(new Error('plain'))).to.equal(undefined);
  });

  it("maps kafkajs's client-side failures by class, and falls back on kafkajs's own retriable flag", () => {
    expect(mapKafkaError(new KafkaJSConnectionError('refused'), 'connecting')).to.include({ code: 'EVENTLOG.UNAVAILABLE', retriable: true });
    expect(mapKafkaError(new KafkaJSNonRetriableError('odd'), 'x')).to.include({ code: 'EVENTLOG.BROKER_ERROR', retriable: false });
    expect(mapKafkaError(protocolError('SOMETHING_NEW', true), 'x')).to.include({ code: 'EVENTLOG.BROKER_ERROR', retriable: true });
  });

  it('does not retry bugs, and passes our own errors through untouched', () => {
    expect(mapKafkaError(new TypeError('undefined is not a function'), 'x')).to.include({ code: 'EVENTLOG.BROKER_ERROR', retriable: false });
    const ours = new MemoryServiceError('EVENTLOG.CLOSED', 'closed');
    expect(mapKafkaError(ours, 'x')).to.equal(ours);
  });

  // Seen with the broker stopped for 20 s under appends at 10/s: the producer's retrier wraps the cluster's exhausted
  // connect retries in a KafkaJSNonRetriableError (retriable=false) whose cause is the refused connection; mapped by
  // the wrapper it was EVENTLOG.BROKER_ERROR, not retriable, and the HTTP answer a 500 instead of a 503.
  it("maps a refused connection as kafkajs's nested retriers hand it over as EVENTLOG.UNAVAILABLE (retriable)", async () => {
    const options = { retries: 1, initialRetryTime: 1, maxRetryTime: 2 };
    const refused = () => new KafkaJSConnectionError('Connection error: connect ECONNREFUSED 127.0.0.1:9092', { broker: '127.0.0.1:9092', code: 'ECONNREFUSED' });
    const thrown = await createRetry(options)(() => createRetry(options)(() => Promise.reject(refused()))).then(
      () => expect.fail('the retriers gave up'),
      (error: unknown) => error,
    );
    expect(thrown).to.be.instanceOf(KafkaJSNonRetriableError).and.to.include({ retriable: false });
    expect((thrown as Error).cause).to.be.instanceOf(KafkaJSConnectionError);
    const mapped = mapKafkaError(thrown, 'appending to memory.ingest.requested');
    expect(mapped).to.include({ code: 'EVENTLOG.UNAVAILABLE', retriable: true });
    expect(mapped.details).to.deep.equal({ kafkaError: 'KafkaJSConnectionError' });
    // A non-retriable broker answer behind the same wrapper stays final, now under its own code.
    const tooLarge = await createRetry(options)(() => Promise.reject(protocolError('MESSAGE_TOO_LARGE', false))).catch((error: unknown) => error);
    expect(tooLarge).to.be.instanceOf(KafkaJSNonRetriableError);
    expect(mapKafkaError(tooLarge, 'x')).to.include({ code: 'EVENTLOG.RECORD_TOO_LARGE', retriable: false });
  });
});
