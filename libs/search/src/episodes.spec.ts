import { expect } from 'chai';
import { withEpisodeContext } from './episodes.js';

describe('episode context', () => {
  const fused = (id: string, score: number) => ({ id, score, contributions: {} });

  it('lifts a memory recorded right after a strong match above an equally weak one recorded apart', () => {
    const createdAt = new Map([['question', 0], ['answer', 60_000], ['elsewhere', 3_600_000], ['strong', 7_200_000]]);
    const ranked = withEpisodeContext([fused('question', 0.9), fused('answer', 0.4), fused('elsewhere', 0.4)], createdAt, { windowMs: 90_000, weight: 0.3 });
    expect(ranked.map((r) => r.id)).to.deep.equal(['question', 'answer', 'elsewhere']);
    expect(ranked[1]!.episode).to.deep.equal({ neighbour: 'question', boost: (0.3 * 0.9) / 1.3 });
    expect(ranked[2]!.episode).to.equal(undefined);
    for (const r of ranked) expect(r.score).to.be.within(0, 1);
  });

  it('keeps scores in 0..1 and the order when nothing is near anything', () => {
    const createdAt = new Map([['a', 0], ['b', 10 * 60_000]]);
    const ranked = withEpisodeContext([fused('a', 1), fused('b', 0.5)], createdAt);
    expect(ranked.map((r) => [r.id, r.score])).to.deep.equal([['a', 1 / 1.3], ['b', 0.5 / 1.3]]);
  });
});
