import { expect } from 'chai';
import type { RankedQuestion } from './aggregate.js';
import { headlineFigures } from './headline.js';

describe('headline figures', () => {
  it('reads any@10 and all@10 over all questions, any@10 of the temporal ones and session R@5', () => {
    const far = Array.from({ length: 10 }, (_, i) => `D${i + 1}:1`);
    const questions: RankedQuestion[] = [
      { category: 2, evidence: ['D1:1'], ranked: ['D1:1'] },
      { category: 2, evidence: ['D3:2'], ranked: ['D3:1'] }, // the right session, not the turn
      { category: 1, evidence: ['D1:1', 'D2:1'], ranked: ['D1:1'] },
      { category: 4, evidence: ['D11:1'], ranked: [...far, 'D11:1'] }, // eleventh: past every cut-off here
    ];
    expect(headlineFigures(questions)).to.deep.equal({ 'any@10': 2 / 4, 'all@10': 1 / 4, 'temporal any@10': 1 / 2, 'session R@5': 3 / 4 });
  });

  it('has no temporal figure without temporal questions', () => {
    expect(headlineFigures([{ category: 4, evidence: ['D1:1'], ranked: ['D1:1'] }])['temporal any@10']).to.equal(null);
  });
});
