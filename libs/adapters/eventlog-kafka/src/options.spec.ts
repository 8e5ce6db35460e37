import { expect } from 'chai';
import { brokersFrom, resolveOptions } from './options.js';

describe('Kafka event log options', () => {
  it('fills in defaults fit for a production cluster', () => {
    const o = resolveOptions({ brokers: ['127.0.0.1:9092'] });
    expect(o).to.include({ clientId: 'memory-service', replicationFactor: 1, defaultPartitions: 8, sessionTimeoutMs: 30_000, heartbeatIntervalMs: 3_000, maxWaitMs: 1_000 });
    expect(o.logger).to.have.property('warn');
  });

  it('reports every problem at once, before any connection', () => {
    try {
      resolveOptions({ brokers: ['no-port', 'h:1'], clientId: 'bad id', replicationFactor: 0, maxWaitMs: 1, heartbeatIntervalMs: 5_000, sessionTimeoutMs: 6_000 });
      expect.fail('should have thrown');
    } catch (error) {
      const e = error as { code: string; details: { problems: string[] } };
      expect(e.code).to.equal('CONFIG.INVALID');
      expect(e.details.problems.join('\n')).to.match(/no-port/).and.match(/clientId/).and.match(/replicationFactor/).and.match(/maxWaitMs/).and.match(/heartbeatIntervalMs/);
      expect(e.details.problems).to.have.length(5);
    }
    expect(() => resolveOptions({ brokers: [] })).to.throw().with.property('code', 'CONFIG.INVALID');
    expect(() => resolveOptions(undefined as never)).to.throw().with.property('code', 'CONFIG.INVALID');
  });

  it('reads a KAFKA_BROKERS value', () => {
    expect(brokersFrom(' a:9092, b:9093 ,,')).to.deep.equal(['a:9092', 'b:9093']);
  });
});
