import { expect } from 'chai';
import { momentInRange, nearestFirst, rangeMiddle } from './time-range.js';

const DAY = 86_400_000;
const range = { from: 10 * DAY, to: 20 * DAY };
const middle = 15 * DAY;
const memory = (createdAt: number, ...times: Array<[number, number]>) => ({ createdAt, eventTimes: times.map(([start, end]) => ({ start, end })) });

describe('nearest moments in a time range', () => {
  it('takes the creation time of a memory without event times, when inside [from, to)', () => {
    expect(momentInRange(range, memory(12 * DAY))).to.equal(12 * DAY);
    expect(momentInRange(range, memory(range.from))).to.equal(range.from);
    expect(momentInRange(range, memory(range.to))).to.equal(null);
  });

  it('ignores the creation time of a memory with event times, even when only it is inside', () => {
    expect(momentInRange(range, memory(middle, [30 * DAY, 31 * DAY]))).to.equal(null);
    expect(momentInRange(range, memory(middle, [11 * DAY, 11 * DAY]))).to.equal(11 * DAY);
  });

  it('clamps an interval to the point of it nearest the middle, inside the range', () => {
    expect(momentInRange(range, memory(0, [14 * DAY, 16 * DAY]))).to.equal(middle);
    expect(momentInRange(range, memory(0, [0, 12 * DAY]))).to.equal(12 * DAY);
    expect(momentInRange(range, memory(0, [17 * DAY, 40 * DAY]))).to.equal(17 * DAY);
    expect(momentInRange(range, memory(0, [0, 40 * DAY]))).to.equal(middle);
    // [from - 1 day, from) ends where the range starts: no overlap.
    expect(momentInRange(range, memory(0, [9 * DAY, 10 * DAY]))).to.equal(null);
  });

  it('takes the mention nearest the middle among those inside', () => {
    // An instant may come as end < start; it is the point at start.
    expect(momentInRange(range, memory(0, [11 * DAY, 11 * DAY], [16 * DAY, 16 * DAY], [middle, middle - DAY]))).to.equal(middle);
    expect(momentInRange(range, memory(0, [11 * DAY, 11 * DAY], [18 * DAY, 18 * DAY], [2 * DAY, 2 * DAY]))).to.equal(18 * DAY);
  });

  it('orders by distance from the middle, ties by id, and cuts to the limit', () => {
    const found = nearestFirst(
      range,
      [
        { id: 'b', ...memory(16 * DAY) },
        { id: 'a', ...memory(14 * DAY) },
        { id: 'c', ...memory(0, [19 * DAY, 19 * DAY]) },
        { id: 'out', ...memory(1 * DAY) },
      ],
      10,
    );
    expect(found).to.deep.equal([{ id: 'a', time: 14 * DAY }, { id: 'b', time: 16 * DAY }, { id: 'c', time: 19 * DAY }]);
    expect(nearestFirst(range, [{ id: 'b', ...memory(16 * DAY) }, { id: 'a', ...memory(14 * DAY) }], 1)).to.deep.equal([{ id: 'a', time: 14 * DAY }]);
  });

  it('never yields NaN for open ranges: one open side orders by id, both open measures from epoch 0', () => {
    expect(rangeMiddle({ from: -Infinity, to: Infinity })).to.equal(0);
    const memories = [{ id: 'b', ...memory(5 * DAY) }, { id: 'a', ...memory(9 * DAY) }];
    expect(nearestFirst({ from: -Infinity, to: 100 * DAY }, memories, 5).map((hit) => hit.id)).to.deep.equal(['a', 'b']);
    expect(nearestFirst({ from: -Infinity, to: Infinity }, memories, 5)).to.deep.equal([{ id: 'b', time: 5 * DAY }, { id: 'a', time: 9 * DAY }]);
    const open = nearestFirst({ from: 0, to: Infinity }, [{ id: 'x', ...memory(0, [DAY, 3 * DAY]) }], 1);
    expect(Number.isNaN(open[0]!.time)).to.equal(false);
  });
});
