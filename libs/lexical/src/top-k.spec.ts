import { expect } from 'chai';
import { TopK } from './top-k.js';

describe('TopK', () => {
  it('keeps the k best of a stream, best first, ties broken by the given order', () => {
    let state = 12345;
    const random = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (const k of [1, 3, 10, 50]) {
      const scores = Array.from({ length: 200 }, () => Math.round(random() * 40) / 40); // many ties
      const top = new TopK(k, (a, b) => a < b);
      scores.forEach((score, slot) => top.offer(score, slot));
      const expected = scores.map((score, slot) => ({ slot, score })).sort((a, b) => b.score - a.score || a.slot - b.slot).slice(0, k);
      expect(top.drain()).to.deep.equal(expected);
    }
  });

  it('keeps nothing when k is 0 and everything when k exceeds the stream', () => {
    const none = new TopK(0, () => true);
    none.offer(1, 0);
    expect(none.drain()).to.deep.equal([]);
    const all = new TopK(5, (a, b) => a < b);
    [0.1, 0.3, 0.2].forEach((s, i) => all.offer(s, i));
    expect(all.drain().map((e) => e.slot)).to.deep.equal([1, 2, 0]);
  });
});
