import { expect } from 'chai';
import type { OffsetPosition } from '@memory/ports';
import { batchSizes, checkPosition, lagOf, offsetFor, toOffset } from './positions.js';

const marks = { partition: 0, low: 4, high: 10 };

describe('positions (offset mapping)', () => {
  it('maps earliest, latest and offsets into the retained range [low, high]', () => {
    expect(offsetFor({ kind: 'earliest' }, marks)).to.equal(4);
    expect(offsetFor({ kind: 'latest' }, marks)).to.equal(10);
    expect(offsetFor({ kind: 'offset', offset: 7 }, marks)).to.equal(7);
    expect(offsetFor({ kind: 'offset', offset: 0 }, marks), 'before the log start').to.equal(4);
    expect(offsetFor({ kind: 'offset', offset: 99 }, marks), 'past the end').to.equal(10);
  });

  it("maps a timestamp to the broker's answer, and to the end when no record is that recent", () => {
    expect(offsetFor({ kind: 'timestamp', timestamp: 1 }, marks, 6)).to.equal(6);
    expect(offsetFor({ kind: 'timestamp', timestamp: 1 }, marks, -1)).to.equal(10);
    expect(offsetFor({ kind: 'timestamp', timestamp: 1 }, marks, undefined)).to.equal(10);
    expect(offsetFor({ kind: 'timestamp', timestamp: 1 }, marks, 2)).to.equal(4);
  });

  it('maps one offset per partition, each clamped, and refuses a list that misses a partition', () => {
    const to: OffsetPosition = { kind: 'offsets', byPartition: [5, 0, 30] };
    expect(offsetFor(to, marks)).to.equal(5);
    expect(offsetFor(to, { partition: 1, low: 2, high: 9 })).to.equal(2);
    expect(offsetFor(to, { partition: 2, low: 0, high: 9 })).to.equal(9);
    expect(() => offsetFor(to, { partition: 3, low: 0, high: 9 })).to.throw().with.property('code', 'EVENTLOG.INVALID_OFFSET');
  });

  it('rejects positions that name no offset with EVENTLOG.INVALID_OFFSET', () => {
    for (const bad of [{ kind: 'offsets', byPartition: [1, -1] }, { kind: 'offsets' }, { kind: 'offset', offset: -1 }, { kind: 'offset', offset: 1.5 }, { kind: 'timestamp', timestamp: Number.NaN }, { kind: 'soon' }, undefined]) {
      expect(() => checkPosition(bad as never), JSON.stringify(bad)).to.throw().with.property('code', 'EVENTLOG.INVALID_OFFSET');
    }
    expect(() => checkPosition({ kind: 'offset', offset: 0 })).not.to.throw();
  });

  it("reports lag in the port's terms: nothing committed (-1) counts from the log start; sorted by partition", () => {
    const lag = lagOf('t', new Map([[1, 3], [0, -1]]), [{ partition: 1, low: 0, high: 5 }, { partition: 0, low: 2, high: 9 }, { partition: 2, low: 0, high: 0 }]);
    expect(lag).to.deep.equal([
      { topic: 't', partition: 0, committed: 2, end: 9 },
      { topic: 't', partition: 1, committed: 3, end: 5 },
      { topic: 't', partition: 2, committed: 0, end: 0 },
    ]);
  });

  it('cuts a fetched run into batches of at most maxBatchSize', () => {
    expect(batchSizes(0, 7)).to.deep.equal([]);
    expect(batchSizes(5, 7)).to.deep.equal([5]);
    expect(batchSizes(20, 7)).to.deep.equal([7, 7, 6]);
  });

  it('delivers a failed batch again with its old size, even when more records arrived since', () => {
    expect(batchSizes(20, 7, 3)).to.deep.equal([3, 7, 7, 3]);
    expect(batchSizes(2, 7, 3), 'fewer than before').to.deep.equal([2]);
    expect(batchSizes(20, 5, 9), 'maxBatchSize shrank').to.deep.equal([5, 5, 5, 5]);
  });

  it('reads int64 offsets as exact numbers', () => {
    expect(toOffset('42')).to.equal(42);
    expect(toOffset('-1')).to.equal(-1);
    expect(() => toOffset('9007199254740993')).to.throw().with.property('code', 'EVENTLOG.INVALID_OFFSET');
  });
});
