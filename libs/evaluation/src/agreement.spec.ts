import { expect } from 'chai';
import { describeAgreement, rankingAgreement } from './agreement.js';
import type { RankedQuestion } from './aggregate.js';

describe('ranking agreement between two systems', () => {
  const q = (evidence: string[], ranked: Array<string | null>): RankedQuestion => ({ category: 4, evidence, ranked });

  it('counts the same turns, the same order and the mean overlap at k', () => {
    const first = [q(['a'], ['a', 'b', 'c']), q(['a'], ['a', 'b', 'c']), q(['a'], ['a', 'b', 'x']), q(['a'], [])];
    const second = [q(['a'], ['a', 'b', 'c']), q(['a'], ['c', 'b', 'a']), q(['a'], ['a', 'b', 'y']), q(['a'], [])];
    const agreement = rankingAgreement(first, second, 3);
    expect(agreement).to.include({ questions: 4, k: 3, sameTurns: 3, sameOrder: 2 });
    expect(agreement.meanOverlap).to.be.closeTo((1 + 1 + 2 / 3 + 1) / 4, 1e-12);
  });

  it('looks only at the first k results', () => {
    const agreement = rankingAgreement([q(['a'], ['a', 'b', 'c'])], [q(['a'], ['a', 'b', 'd'])], 2);
    expect(agreement).to.include({ sameTurns: 1, sameOrder: 1, meanOverlap: 1 });
  });

  it('tells which system alone recalled a question, for any@k and all@k', () => {
    const first = [q(['a', 'b'], ['a', 'b']), q(['a'], ['a']), q(['a'], ['x']), q(['a', 'b'], ['a', 'x'])];
    const second = [q(['a', 'b'], ['a', 'x']), q(['a'], ['x']), q(['a'], ['a']), q(['a', 'b'], ['x', 'y'])];
    const agreement = rankingAgreement(first, second, 2);
    expect(agreement.any).to.deep.equal({ both: 1, firstOnly: 2, secondOnly: 1, neither: 0 });
    expect(agreement.all).to.deep.equal({ both: 0, firstOnly: 2, secondOnly: 1, neither: 1 });
  });

  it('never matches a result that is no turn', () => {
    const agreement = rankingAgreement([q(['a'], ['a', null])], [q(['a'], ['a', null])], 2);
    expect(agreement).to.include({ sameTurns: 0, sameOrder: 0, meanOverlap: 0.5 });
  });

  it('refuses answers to different numbers of questions', () => {
    expect(() => rankingAgreement([q(['a'], [])], [], 10)).to.throw(/1 and 0 questions/);
  });

  it('reads as lines naming both systems', () => {
    const lines = describeAgreement(['embedded', 'distributed'], rankingAgreement([q(['a'], ['a'])], [q(['a'], ['x'])], 10));
    expect(lines).to.deep.equal([
      'embedded vs distributed, 1 questions, top 10:',
      '  same turns 0 of 1 (in the same order 0); mean overlap 0.000',
      '  any@10 the same on 0 of 1 (embedded only 1, distributed only 0)',
      '  all@10 the same on 0 of 1 (embedded only 1, distributed only 0)',
    ]);
  });
});
