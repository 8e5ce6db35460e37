import { expect } from 'chai';
import { seededRandom } from '@memory/platform';
import { sentenceGenerator } from './index.js';

describe('memory sentence generator', () => {
  it('gives the same texts for the same seed and different ones for another seed', () => {
    const take = (seed: number) => {
      const g = sentenceGenerator(seed);
      return Array.from({ length: 20 }, () => g.memory());
    };
    expect(take(7)).to.deep.equal(take(7));
    expect(take(7)).to.not.deep.equal(take(8));
  });

  it('makes varied memories of one to three sentences, not repeats of one string', () => {
    const g = sentenceGenerator(1);
    const memories = Array.from({ length: 1000 }, () => g.memory());
    expect(new Set(memories).size).to.be.greaterThan(990);
    for (const text of memories) {
      const sentences = text.split(/(?<=[.!?])\s+(?=[A-Z])/).length;
      expect(sentences, text).to.be.within(1, 6);
      expect(text.length, text).to.be.within(20, 400);
      expect(text).to.not.match(/undefined/);
    }
  });

  it('makes questions as queries', () => {
    const g = sentenceGenerator(3);
    const queries = Array.from({ length: 200 }, () => g.query());
    expect(new Set(queries).size).to.be.greaterThan(60);
    for (const q of queries) expect(q).to.match(/^[A-Z].*\?$/);
  });

  it('seeded random numbers lie in [0, 1) and repeat for a seed', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    for (let i = 0; i < 1000; i++) {
      const x = a();
      expect(x).to.equal(b());
      expect(x).to.be.at.least(0).and.below(1);
    }
  });
});
