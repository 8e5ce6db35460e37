import { expect } from 'chai';
import { addMembers, centroidDirection, cosine, emptyCentroid, replaceMember } from './centroid-math.js';

describe('centroid math', () => {
  it('is the normalised mean of its members', () => {
    const c = addMembers(emptyCentroid('m@1', 2), [[1, 0], [0, 1]]).centroid;
    expect(c.memoryCount).to.equal(2);
    const dir = centroidDirection(c);
    expect(dir[0]).to.be.closeTo(Math.SQRT1_2, 1e-6);
    expect(dir[1]).to.be.closeTo(Math.SQRT1_2, 1e-6);
  });

  it('gives the same result when members are added in one batch or one by one', () => {
    const vectors = [[0.6, 0.8], [1, 0], [0, -1]];
    const batch = addMembers(emptyCentroid('m@1', 2), vectors).centroid;
    let single = emptyCentroid('m@1', 2);
    for (const v of vectors) single = addMembers(single, [v]).centroid;
    expect(Array.from(single.sum)).to.deep.equal(Array.from(batch.sum));
    expect(single.similaritySum).to.equal(batch.similaritySum);
  });

  it('tracks how close members were to the centroid when they joined', () => {
    const { centroid, shares } = addMembers(emptyCentroid('m@1', 2), [[1, 0], [1, 0], [0, 1]]);
    // 1 (first member) + 1 (same direction) + 0 (orthogonal)
    expect(shares).to.deep.equal([1, 1, 0]);
    expect(centroid.similaritySum).to.be.closeTo(2, 1e-6);
  });

  it('does not modify the centroid it was given', () => {
    const start = addMembers(emptyCentroid('m@1', 2), [[1, 0]]).centroid;
    addMembers(start, [[0, 1]]);
    replaceMember(start, { vector: [1, 0], share: 1 }, [0, 1]);
    expect(Array.from(start.sum)).to.deep.equal([1, 0]);
  });

  it('replaces a corrected member as if it had joined last with its new vector', () => {
    const before = addMembers(emptyCentroid('m@1', 2), [[1, 0], [0.6, 0.8], [0, 1]]);
    // The second member becomes [1, 0]: the same as taking it out and adding the new vector after the others.
    const replaced = replaceMember(before.centroid, { vector: [0.6, 0.8], share: before.shares[1]! }, [1, 0]);
    const rebuilt = addMembers(emptyCentroid('m@1', 2), [[1, 0], [0, 1]]);
    const rebuiltWithNew = addMembers(rebuilt.centroid, [[1, 0]]);
    expect(replaced.centroid.memoryCount).to.equal(3);
    // Float32 sums: taking 0.8 out and adding 0 leaves a rounding the rebuilt sum never had.
    Array.from(replaced.centroid.sum).forEach((x, i) => expect(x).to.be.closeTo(rebuiltWithNew.centroid.sum[i]!, 1e-6));
    expect(replaced.shares[0]).to.be.closeTo(rebuiltWithNew.shares[0]!, 1e-6);
    // The first and third keep the shares they joined with (1 and their similarity to [1.6, 0.8]).
    expect(replaced.centroid.similaritySum).to.be.closeTo(1 + before.shares[2]! + replaced.shares[0]!, 1e-6);
  });

  it('gives a lone member corrected the share of a first member', () => {
    const alone = addMembers(emptyCentroid('m@1', 2), [[1, 0]]);
    const replaced = replaceMember(alone.centroid, { vector: [1, 0], share: 1 }, [0, 1]);
    expect(Array.from(replaced.centroid.sum)).to.deep.equal([0, 1]);
    expect(replaced.centroid.similaritySum).to.equal(1);
  });

  it('computes cosine similarity', () => {
    expect(cosine([1, 0], [0, 1])).to.equal(0);
    expect(cosine([2, 0], [1, 0])).to.equal(1);
    expect(cosine([0, 0], [1, 0])).to.equal(0);
  });
});
