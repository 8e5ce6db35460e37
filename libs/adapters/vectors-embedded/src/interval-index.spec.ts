import { expect } from 'chai';
import { IntervalIndex } from './interval-index.js';
import { matchesTimeRange } from './time-filter.js';

describe('interval index', () => {
  it('finds the rows matchesTimeRange accepts, through adds, replacements, moves and removals', () => {
    let seed = 17;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const HOUR = 3_600_000;
    const lengths = [0, -HOUR, 10 * 60_000, HOUR, 24 * HOUR, 7 * 24 * HOUR, 31 * 24 * HOUR, 365 * 24 * HOUR, 5000 * 24 * HOUR];
    const someTime = () => Math.floor(random() * 2000) * HOUR;
    const drawTimes = (): Float64Array | null => {
      if (random() < 0.4) return null;
      return Float64Array.from(Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
        const start = someTime();
        return [start, start + lengths[Math.floor(random() * lengths.length)]!];
      }).flat());
    };
    // A miniature ScopeIndex: dense slots, creation time as an instant when a row has no event times.
    const created: number[] = [];
    const times: Array<Float64Array | null> = [];
    const intervalsOf = (slot: number) => times[slot] ?? Float64Array.of(created[slot]!, created[slot]!);
    const index = new IntervalIndex();
    for (let step = 0; step < 3000; step++) {
      const roll = random();
      if (created.length > 0 && roll < 0.25) {
        const slot = Math.floor(random() * created.length);
        const last = created.length - 1;
        index.remove(slot, intervalsOf(slot));
        if (slot !== last) {
          index.relabel(last, slot, intervalsOf(last));
          created[slot] = created[last]!;
          times[slot] = times[last]!;
        }
        created.pop();
        times.pop();
      } else if (created.length > 0 && roll < 0.4) {
        const slot = Math.floor(random() * created.length);
        index.remove(slot, intervalsOf(slot));
        times[slot] = drawTimes();
        index.add(slot, intervalsOf(slot));
      } else {
        created.push(someTime());
        times.push(drawTimes());
        index.add(created.length - 1, intervalsOf(created.length - 1));
      }
    }
    for (let q = 0; q < 300; q++) {
      const from = someTime();
      const range = { from, to: from + Math.floor(random() * 400) * HOUR };
      const marks = index.matching(range, created.length);
      const found = created.map((_, slot) => slot).filter((slot) => marks[slot] === 1);
      const expected = created.map((_, slot) => slot).filter((slot) => matchesTimeRange(range, created[slot]!, times[slot] ?? null));
      expect(found).to.deep.equal(expected);
    }
  });
});
