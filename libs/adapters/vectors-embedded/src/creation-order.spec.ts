import { expect } from 'chai';
import { CreationOrder } from './creation-order.js';

describe('creation order', () => {
  it('answers "created near" like a scan of every row, through inserts, back-dated rows, moves and removals', () => {
    let seed = 3;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    // A miniature ScopeIndex: dense slots, the last row moved into a removed one's place.
    const ids: string[] = [];
    const times: number[] = [];
    const order = new CreationOrder(4, (slot) => times[slot]!, (slot) => ids[slot]!);
    let capacity = 4;
    let next = 0;
    for (let step = 0; step < 4000; step++) {
      if (ids.length > 0 && random() < 0.3) {
        const slot = Math.floor(random() * ids.length);
        const last = ids.length - 1;
        order.remove(slot);
        if (slot !== last) {
          order.relabel(last, slot);
          ids[slot] = ids[last]!;
          times[slot] = times[last]!;
        }
        ids.pop();
        times.pop();
      } else {
        if (ids.length === capacity) order.grow((capacity *= 2));
        ids.push(`m${next++}`);
        // Mostly in time order, some back-dated, some at the same millisecond.
        times.push(random() < 0.8 ? step * 10 : Math.floor(random() * step) * 10);
        order.insert(ids.length - 1);
      }
    }
    for (let q = 0; q < 200; q++) {
      const instants = Array.from({ length: 1 + Math.floor(random() * 5) }, () => Math.floor(random() * 40_000));
      const window = Math.floor(random() * 300);
      const limit = 1 + Math.floor(random() * 40);
      const expected = ids
        .map((id, slot) => ({ id, time: times[slot]! }))
        .filter((row) => instants.some((t) => Math.abs(row.time - t) <= window))
        .sort((a, b) => a.time - b.time || (a.id < b.id ? -1 : 1))
        .slice(0, limit)
        .map((row) => row.id);
      expect(order.near(instants, window, limit).map((slot) => ids[slot])).to.deep.equal(expected);
    }
  });
});
