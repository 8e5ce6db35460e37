import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { Partitioners, type PartitionMetadata } from 'kafkajs';
import { partitionFor } from '@memory/contracts';
import { explicitPartitioner } from './partitioner.js';

const metadata = (n: number): PartitionMetadata[] =>
  Array.from({ length: n }, (_, partitionId) => ({ partitionId, leader: 1, partitionErrorCode: 0, replicas: [1], isr: [1] }));

describe('partitioner', () => {
  it("puts every key where kafkajs's DefaultPartitioner (the Java-compatible one) puts it", () => {
    const kafkajs = Partitioners.DefaultPartitioner();
    for (const partitions of [1, 3, 8, 50]) {
      for (let i = 0; i < 300; i++) {
        const key = i % 3 === 0 ? `tenant-${i}/user-${i * 7}` : randomBytes(1 + (i % 40)).toString('base64');
        expect(partitionFor(key, partitions), key).to.equal(kafkajs({ topic: 't', partitionMetadata: metadata(partitions), message: { key, value: null } }));
      }
    }
  });

  it('is stable per key, within range, and spreads keys over partitions', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 200; i++) {
      const p = partitionFor(`user-${i}`, 8);
      expect(p).to.be.within(0, 7);
      expect(partitionFor(`user-${i}`, 8)).to.equal(p);
      seen.add(p);
    }
    expect(seen.size).to.equal(8);
    expect(partitionFor('ключ/用户', 5)).to.equal(partitionFor('ключ/用户', 5)); // UTF-8 bytes, not UTF-16 units
    expect(() => partitionFor('k', 0)).to.throw(RangeError);
  });

  it("hands kafkajs the partition the adapter chose, and hashes only when there is none", () => {
    const choose = explicitPartitioner();
    expect(choose({ topic: 't', partitionMetadata: metadata(4), message: { key: 'k', value: null, partition: 3 } })).to.equal(3);
    expect(choose({ topic: 't', partitionMetadata: metadata(4), message: { key: 'k', value: null } })).to.equal(partitionFor('k', 4));
  });
});
