import { expect } from 'chai';
import { clsVector, meanOfTokens } from './pooling.js';

describe('pooling', () => {
  // Two rows of width 3, 2 dimensions: row 0 has 3 tokens, row 1 has 2 and one position of padding (99s).
  const hidden = Float32Array.from([1, 2, 3, 4, 5, 6, 10, 20, 30, 40, 99, 99]);
  const rowStart = (row: number) => row * 3 * 2;

  it('takes the first position for [CLS] pooling', () => {
    expect(Array.from(clsVector(hidden, rowStart(0), 3, 2))).to.deep.equal([1, 2]);
    expect(Array.from(clsVector(hidden, rowStart(1), 2, 2))).to.deep.equal([10, 20]);
  });

  it("averages a row's own tokens and leaves its padding out", () => {
    expect(Array.from(meanOfTokens(hidden, rowStart(0), 3, 2))).to.deep.equal([3, 4]);
    expect(Array.from(meanOfTokens(hidden, rowStart(1), 2, 2))).to.deep.equal([20, 30]);
  });

  it('copies, so the output buffer can be let go', () => {
    const cls = clsVector(hidden, 0, 3, 2);
    cls[0] = -1;
    expect(hidden[0]).to.equal(1);
  });
});
