import { expect } from 'chai';
import type { MemoryCommitted } from '@memory/contracts';
import type { Centroid, CentroidMember } from '@memory/ports';
import { addMembers, emptyCentroid, fold, type Plan } from './index.js';

const commit = (memoryId: string, vector: number[], version = 1, replacedVector: number[] | null = null): MemoryCommitted => ({
  memoryId, jobId: `job_${memoryId}`, tenantId: 't', endUserId: 'u', partIndex: 0, partCount: 1, createdAt: 1, embeddingModel: 'm@1', vector, version, replacedVector,
});
const changedOf = (plan: Plan) => (typeof plan === 'string' ? plan : Object.fromEntries(plan.changed));

describe('the calibrator folding one end user\'s commits', () => {
  const a = [1, 0, 0];
  const b = [0, 1, 0];
  const b2 = [0, 0, 1];
  const before = addMembers(emptyCentroid('m@1', 3), [a, b]);
  const known = new Map<string, CentroidMember | null>([['a', { version: 1, similarity: before.shares[0]! }], ['b', { version: 1, similarity: before.shares[1]! }]]);

  it('folds new memories in, in order, recording each one\'s version and share', () => {
    const plan = fold([commit('a', a), commit('b', b)], new Map(), null);
    expect(plan).to.not.be.a('string');
    expect(Array.from((plan as { centroid: Centroid }).centroid.sum)).to.deep.equal([1, 1, 0]);
    expect(changedOf(plan)).to.deep.equal({ a: { version: 1, similarity: 1 }, b: { version: 1, similarity: 0 } });
  });

  it('changes nothing for a commit the centroid already holds, redelivered or replayed', () => {
    expect(fold([commit('a', a), commit('b', b2, 1)], known, before.centroid)).to.equal('unchanged');
  });

  it('swaps a corrected member\'s vector for its new one, without reading any other member', () => {
    const plan = fold([commit('b', b2, 2, b)], known, before.centroid);
    const { centroid } = plan as { centroid: Centroid };
    expect(Array.from(centroid.sum)).to.deep.equal([1, 0, 1]);
    expect(centroid.memoryCount).to.equal(2);
    expect(changedOf(plan)).to.deep.equal({ b: { version: 2, similarity: 0 } });
    expect(centroid.similaritySum).to.be.closeTo(1, 1e-9);
    // Delivered again, the correction finds its version recorded.
    expect(fold([commit('b', b2, 2, b)], new Map([['b', { version: 2, similarity: 0 }]]), centroid)).to.equal('unchanged');
  });

  it('folds an ingestion and its correction in one batch as the new vector alone', () => {
    const plan = fold([commit('a', a), commit('a', b, 2, a)], new Map(), null);
    expect(Array.from((plan as { centroid: Centroid }).centroid.sum)).to.deep.equal([0, 1, 0]);
    expect(changedOf(plan)).to.deep.equal({ a: { version: 2, similarity: 1 } });
  });

  it('asks for a recompute when the replaced vector is unknown or not the version it holds', () => {
    expect(fold([commit('b', b2, 2, null)], known, before.centroid)).to.equal('recompute');
    expect(fold([commit('b', b2, 3, b)], known, before.centroid)).to.equal('recompute');
  });

  it('asks for a recompute when a member recorded without its version changes, and only then', () => {
    const legacy = new Map<string, CentroidMember | null>([['a', null]]);
    expect(fold([commit('a', a)], legacy, before.centroid)).to.equal('unchanged');
    expect(fold([commit('a', b2, 2, a)], legacy, before.centroid)).to.equal('recompute');
  });
});
