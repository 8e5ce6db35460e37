import { expect } from 'chai';
import { decideCentroidMode, MIN_CENTROID_MEMBERS } from './centroid-mode.js';
import { maximalMarginalRelevance } from './rerankers/mmr.js';

const v = (...xs: number[]) => Float32Array.from(xs);

describe('centroid mode', () => {
  const centroid = (sum: Float32Array, meanSimilarity: number, memoryCount = 20) => ({ embeddingModel: 'm', sum, memoryCount, similaritySum: meanSimilarity * memoryCount });

  it('is META for a query as close to the centroid as the user average memory, SPECIFIC farther out', () => {
    const c = centroid(v(1, 1, 0), 0.8);
    expect(decideCentroidMode(v(1, 0.9, 0.1), c).mode).to.equal('META');
    expect(decideCentroidMode(v(0, 0.2, 1), c).mode).to.equal('SPECIFIC');
  });

  it('calibrates on the user: the same query is broad for a varied user and narrow for a uniform one', () => {
    const query = v(1, 0.5, 0.4);
    expect(decideCentroidMode(query, centroid(v(1, 1, 0), 0.6)).mode).to.equal('META');
    expect(decideCentroidMode(query, centroid(v(1, 1, 0), 0.95)).mode).to.equal('SPECIFIC');
  });

  it('stays SPECIFIC without a centroid or with too few memories', () => {
    expect(decideCentroidMode(v(1, 0), null).mode).to.equal('SPECIFIC');
    expect(decideCentroidMode(v(1, 0), centroid(v(1, 0), 0.1, MIN_CENTROID_MEMBERS - 1)).mode).to.equal('SPECIFIC');
  });
});

describe('maximal marginal relevance', () => {
  it('skips a near-copy of a picked memory for a different one', () => {
    const vectors = new Map([['a', v(1, 0)], ['a-copy', v(0.99, 0.01)], ['b', v(0, 1)]]);
    const picked = maximalMarginalRelevance([{ id: 'a', score: 1 }, { id: 'a-copy', score: 0.95 }, { id: 'b', score: 0.7 }], vectors, 2, 0.7);
    expect(picked.map((p) => p.id)).to.deep.equal(['a', 'b']);
  });
});
