import { expect } from 'chai';
import { murmur2, partitionFor } from './partitioner.js';

describe('eventlog-embedded partitioner', () => {
  it('matches the Kafka Java client murmur2 vectors (UtilsTest.testMurmur2)', () => {
    const vectors: Array<[string, number]> = [
      ['21', -973932308],
      ['foobar', -790332482],
      ['a-little-bit-long-string', -985981536],
      ['a-little-bit-longer-string', -1486304829],
      ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
      ['abc', 479470107],
    ];
    for (const [input, expected] of vectors) expect(murmur2(Buffer.from(input)), input).to.equal(expected);
  });

  it('maps a key to a partition in range, the same one every time', () => {
    for (const key of ['', 'tenant/user-1', 'ünïcödé', 'x'.repeat(1000)]) {
      const p = partitionFor(key, 8);
      expect(p).to.be.within(0, 7);
      expect(partitionFor(key, 8)).to.equal(p);
    }
  });
});
