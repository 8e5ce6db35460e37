import { expect } from 'chai';
import { planBatches } from './batch-plan.js';

describe('planBatches', () => {
  it('sorts by length and caps rows per batch', () => {
    expect(planBatches([9, 3, 5, 3, 7], 2, 1000)).to.deep.equal([[1, 3], [2, 4], [0]]);
  });

  it('closes a batch before its padded size passes the token budget', () => {
    // 3 rows of 10 = 30 fits; a fourth row of 12 would pad to 48.
    expect(planBatches([10, 10, 10, 12, 12], 100, 40)).to.deep.equal([[0, 1, 2], [3, 4]]);
  });

  it('always places a sequence, even one longer than the budget on its own', () => {
    expect(planBatches([600], 8, 512)).to.deep.equal([[0]]);
  });

  it('covers every index exactly once', () => {
    const lengths = Array.from({ length: 50 }, (_, i) => ((i * 37) % 23) + 2);
    const flat = planBatches(lengths, 7, 60).flat();
    expect([...flat].sort((a, b) => a - b)).to.deep.equal(lengths.map((_, i) => i));
  });

  it('returns no batches for no input', () => {
    expect(planBatches([], 4, 100)).to.deep.equal([]);
  });
});
