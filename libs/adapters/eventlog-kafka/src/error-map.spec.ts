import { expect } from 'chai';
import {
  KafkaJSAggregateError, KafkaJSConnectionError, KafkaJSNonRetriableError, KafkaJSNumberOfRetriesExceeded, KafkaJSProtocolError,
} from 'kafkajs';
import { MemoryServiceError } from '@memory/platform';
import { kafkaErrorType, mapKafkaError } from './error-map.js';

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
});
