import { expect } from 'chai';
import { addMembers, centroidDirection, cosine, emptyCentroid } from './centroid-math.js';

describe('centroid math', () => {
  it('is the normalised mean of its members', () => {
    const c = addMembers(emptyCentroid('m@1', 2), [[1, 0], [0, 1]]);
    expect(c.memoryCount).to.equal(2);
    const dir = centroidDirection(c);
    expect(dir[0]).to.be.closeTo(Math.SQRT1_2, 1e-6);
    expect(dir[1]).to.be.closeTo(Math.SQRT1_2, 1e-6);
  });

  it('gives the same result when members are added in one batch or one by one', () => {
    const vectors = [[0.6, 0.8], [1, 0], [0, -1]];
    const batch = addMembers(emptyCentroid('m@1', 2), vectors);
    let single = emptyCentroid('m@1', 2);
    for (const v of vectors) single = addMembers(single, [v]);
    expect(Array.from(single.sum)).to.deep.equal(Array.from(batch.sum));
    expect(single.similaritySum).to.equal(batch.similaritySum);
  });

  it('tracks how close members were to the centroid when they joined', () => {
    const c = addMembers(emptyCentroid('m@1', 2), [[1, 0], [1, 0], [0, 1]]);
    // 1 (first member) + 1 (same direction) + 0 (orthogonal)
    expect(c.similaritySum).to.be.closeTo(2, 1e-6);
  });

  it('does not modify the centroid it was given', () => {
    const start = addMembers(emptyCentroid('m@1', 2), [[1, 0]]);
    addMembers(start, [[0, 1]]);
    expect(Array.from(start.sum)).to.deep.equal([1, 0]);
  });

  it('computes cosine similarity', () => {
    expect(cosine([1, 0], [0, 1])).to.equal(0);
    expect(cosine([2, 0], [1, 0])).to.equal(1);
    expect(cosine([0, 0], [1, 0])).to.equal(0);
  });
});
