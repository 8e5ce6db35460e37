import { expect } from 'chai';
import { decideCentroidMode, MIN_CENTROID_MEMBERS } from './centroid-mode.js';
import { maximalMarginalRelevance } from './rerankers/mmr.js';

const v = (...xs: number[]) => Float32Array.from(xs);

describe('centroid mode', () => {
  const query = v(1, 0);
  /** A centroid of `memoryCount` members at this cosine to the query (its length does not count). */
  const centroidAt = (similarity: number, memoryCount = 20) => ({
    embeddingModel: 'm',
    sum: v(similarity * memoryCount, Math.sqrt(1 - similarity ** 2) * memoryCount),
    memoryCount,
    similaritySum: 0.7 * memoryCount,
  });

  // Cosines of bge-small-en-v1.5-q for a made-up user of 16 memories (the README's probe): to the centroid, and to
  // the nearest memory.
  for (const [question, toCentroid, toNearest, mode] of [
    ['What are my hobbies?', 0.605, 0.577, 'META'],
    ['Tell me about myself', 0.619, 0.518, 'META'],
    ['What is my life like?', 0.589, 0.481, 'META'],
    ['When did I run a half marathon?', 0.593, 0.803, 'SPECIFIC'],
    ['What is my cat called?', 0.555, 0.651, 'SPECIFIC'],
    ['Which author do I like?', 0.488, 0.519, 'SPECIFIC'],
  ] as const) {
    it(`${mode} for "${question}": centroid ${toCentroid}, nearest memory ${toNearest}`, () => {
      const decision = decideCentroidMode(query, centroidAt(toCentroid), toNearest);
      expect(decision.mode).to.equal(mode);
      expect(decision.similarity).to.be.closeTo(toCentroid, 1e-6);
      expect(decision.threshold).to.equal(toNearest);
    });
  }

  it('reads no absolute cosine: a model that puts every text higher routes alike', () => {
    expect(decideCentroidMode(query, centroidAt(0.86), 0.84).mode).to.equal('META');
    expect(decideCentroidMode(query, centroidAt(0.84), 0.86).mode).to.equal('SPECIFIC');
    expect(decideCentroidMode(query, centroidAt(0.3), 0.25).mode).to.equal('META');
  });

  it('is SPECIFIC on a tie: the nearest memory is as near as the centroid', () => {
    expect(decideCentroidMode(query, centroidAt(0.6), 0.6).mode).to.equal('SPECIFIC');
  });

  it('stays SPECIFIC without a centroid, with too few memories, or without a memory to compare', () => {
    expect(decideCentroidMode(query, null, 0.2).mode).to.equal('SPECIFIC');
    expect(decideCentroidMode(query, centroidAt(0.9, MIN_CENTROID_MEMBERS - 1), 0.2).mode).to.equal('SPECIFIC');
    expect(decideCentroidMode(query, centroidAt(0.9), null)).to.include({ mode: 'SPECIFIC', threshold: null });
  });
});

describe('maximal marginal relevance', () => {
  it('skips a near-copy of a picked memory for a different one', () => {
    const candidates = [{ id: 'a', score: 1, vector: v(1, 0) }, { id: 'a-copy', score: 0.95, vector: v(0.99, 0.01) }, { id: 'b', score: 0.7, vector: v(0, 1) }];
    const picked = maximalMarginalRelevance(candidates, 2, 0.7);
    expect(picked.map((p) => p.id)).to.deep.equal(['a', 'b']);
  });
});
