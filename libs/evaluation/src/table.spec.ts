import { expect } from 'chai';
import { formatRecallTable, questionCounts, recallByCategory, type RankedQuestion } from './index.js';

describe('recall table', () => {
  it('has a row per system and k, any and all per category, "-" where a category has no questions', () => {
    const questions: RankedQuestion[] = [{ category: 1, evidence: ['a'], ranked: ['a'] }];
    const text = formatRecallTable({
      systems: [
        { name: 'system', figures: recallByCategory(questions, [5, 10]) },
        { name: 'bm25', figures: recallByCategory([{ ...questions[0]!, ranked: [] }], [5, 10]) },
      ],
      counts: questionCounts(questions),
      ks: [5, 10],
    });
    const lines = text.split('\n');
    expect(lines[0]).to.match(/^recall\s+1 multi-hop\s+2 temporal\s+3 open-domain\s+4 single-hop\s+all$/);
    expect(lines[1]).to.match(/^questions\s+n=1\s+n=0\s+n=0\s+n=0\s+n=1$/);
    expect(lines.slice(3).map((l) => l.trim().split(/\s+/).slice(0, 4).join(' '))).to.deep.equal([
      '@5 system 1.000 1.000',
      'bm25 0.000 0.000 -',
      '@10 system 1.000 1.000',
      'bm25 0.000 0.000 -',
    ]);
  });
});
