import { expect } from 'chai';
import { evidenceRecall } from './metrics.js';

describe('evidence recall at k', () => {
  const ranked = ['D1:3', null, 'D2:1', 'D1:1', 'D4:2'];

  it('any: some evidence turn within the first k', () => {
    expect(evidenceRecall(ranked, ['D2:1'], 2).any).to.equal(false);
    expect(evidenceRecall(ranked, ['D2:1'], 3).any).to.equal(true);
  });

  it('all: every evidence turn within the first k', () => {
    expect(evidenceRecall(ranked, ['D1:3', 'D4:2'], 3)).to.deep.equal({ any: true, all: false });
    expect(evidenceRecall(ranked, ['D1:3', 'D4:2'], 5)).to.deep.equal({ any: true, all: true });
  });

  it('counts a result that is no turn as a place in the top k', () => {
    expect(evidenceRecall(ranked, ['D2:1'], 2)).to.deep.equal({ any: false, all: false });
  });

  it('treats k past the end of the results as all of them', () => {
    expect(evidenceRecall(['D1:1'], ['D1:1'], 20)).to.deep.equal({ any: true, all: true });
    expect(evidenceRecall([], ['D1:1'], 20)).to.deep.equal({ any: false, all: false });
  });

  it('refuses questions without evidence and k below 1', () => {
    expect(() => evidenceRecall(ranked, [], 5)).to.throw(/without evidence/);
    expect(() => evidenceRecall(ranked, ['D1:1'], 0)).to.throw(/at least 1/);
  });
});
