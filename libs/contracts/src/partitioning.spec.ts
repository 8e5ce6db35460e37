import { expect } from 'chai';
import { murmur2, partitionFor } from './partitioning.js';

describe('partitioning', () => {
  it("hashes like Kafka's Java client (the reference values of its Utils.murmur2 tests)", () => {
    const reference: Array<[string, number]> = [
      ['21', -973932308],
      ['foobar', -790332482],
      ['a-little-bit-long-string', -985981536],
      ['a-little-bit-longer-string', -1486304829],
      ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
      ['abc', 479470107],
    ];
    for (const [key, hash] of reference) expect(murmur2(Buffer.from(key)), key).to.equal(hash);
  });

  it('maps a key to a partition in range, the same one every time', () => {
    for (const key of ['', 'tenant/user-1', 'ünïcödé', 'x'.repeat(1000)]) {
      const p = partitionFor(key, 8);
      expect(p).to.be.within(0, 7);
      expect(partitionFor(key, 8)).to.equal(p);
    }
  });

  it('refuses a partition count that is not a positive whole number', () => {
    expect(() => partitionFor('k', 0)).to.throw(RangeError);
  });
});
