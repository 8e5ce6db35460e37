import { expect } from 'chai';
import { minInsyncReplicas, topicConfig } from './topic-config.js';

describe('Kafka topic config (no broker)', () => {
  const config = (replicationFactor: number, retentionMs?: number) =>
    topicConfig({ name: 'memory.t', partitions: 0, ...(retentionMs ? { retentionMs } : {}) }, { defaultPartitions: 8, replicationFactor });
  const entries = (replicationFactor: number, retentionMs?: number) =>
    Object.fromEntries(config(replicationFactor, retentionMs).configEntries!.map((e) => [e.name, e.value]));

  it('asks two in-sync replicas of an acknowledged append when there are two or more, one with one', () => {
    expect([1, 2, 3, 4, 5].map(minInsyncReplicas)).to.deep.equal([1, 2, 2, 2, 2]);
    expect(entries(3)).to.have.property('min.insync.replicas', '2');
    expect(entries(2)).to.have.property('min.insync.replicas', '2');
    expect(entries(1)).to.have.property('min.insync.replicas', '1');
  });

  it('creates a topic with its partitions (or the default), replicas, retention (forever by default) and log-append timestamps', () => {
    expect(config(3)).to.deep.include({ topic: 'memory.t', numPartitions: 8, replicationFactor: 3 });
    expect(entries(3)).to.deep.equal({ 'retention.ms': '-1', 'message.timestamp.type': 'LogAppendTime', 'min.insync.replicas': '2' });
    expect(entries(1, 60_000)).to.include({ 'retention.ms': '60000' });
    expect(topicConfig({ name: 'x', partitions: 3 }, { defaultPartitions: 8, replicationFactor: 1 }).numPartitions).to.equal(3);
  });

  it('refuses a bad name, partition count or retention with EVENTLOG.INVALID_TOPIC', () => {
    const options = { defaultPartitions: 8, replicationFactor: 1 };
    expect(() => topicConfig({ name: 'has space', partitions: 1 }, options)).to.throw().with.property('code', 'EVENTLOG.INVALID_TOPIC');
    expect(() => topicConfig({ name: 'x', partitions: 1.5 }, options)).to.throw().with.property('code', 'EVENTLOG.INVALID_TOPIC');
    expect(() => topicConfig({ name: 'x', partitions: 1, retentionMs: -5 }, options)).to.throw().with.property('code', 'EVENTLOG.INVALID_TOPIC');
  });
});
