import { expect } from 'chai';
import { MemoryServiceError } from '@memory/platform';
import { l2Normalize, responseToUnitVectors } from './response-vectors.js';

const norm = (v: Float32Array) => Math.hypot(...v);

function failure(run: () => unknown): MemoryServiceError {
  try {
    run();
  } catch (error) {
    expect(error).to.be.instanceOf(MemoryServiceError);
    return error as MemoryServiceError;
  }
  throw new Error('expected a failure');
}

describe('responseToUnitVectors', () => {
  it('normalises one pooled vector per text', () => {
    const [a, b] = responseToUnitVectors([[3, 4, 0], [0, 0, 2]], 2, 3, 'cls');
    expect(Array.from(a!)).to.deep.equal([0.6000000238418579, 0.800000011920929, 0]);
    expect(Array.from(b!)).to.deep.equal([0, 0, 1]);
  });

  it('accepts a bare vector for a single text', () => {
    const [only] = responseToUnitVectors([1, 1, 1, 1], 1, 4, 'cls');
    expect(norm(only!)).to.be.closeTo(1, 1e-6);
  });

  it('pools token vectors: cls takes the first, mean averages', () => {
    const tokens = [[[2, 0], [0, 2], [0, 2]]];
    expect(Array.from(responseToUnitVectors(tokens, 1, 2, 'cls')[0]!)).to.deep.equal([1, 0]);
    const [mean] = responseToUnitVectors(tokens, 1, 2, 'mean');
    expect(mean![0]).to.be.closeTo(1 / Math.sqrt(5), 1e-6);
    expect(mean![1]).to.be.closeTo(2 / Math.sqrt(5), 1e-6);
  });

  it('refuses answers that do not fit the request', () => {
    expect(failure(() => responseToUnitVectors({ error: 'x' }, 1, 2, 'cls')).code).to.equal('EMBEDDER.BAD_RESPONSE');
    expect(failure(() => responseToUnitVectors([[1, 0]], 2, 2, 'cls')).message).to.contain('1 entries');
    expect(failure(() => responseToUnitVectors([[1, 0, 0]], 1, 2, 'cls')).message).to.contain('3-d vector');
    expect(failure(() => responseToUnitVectors([[0, 0]], 1, 2, 'cls')).message).to.contain('zero vector');
    expect(failure(() => responseToUnitVectors([[1, Number.NaN]], 1, 2, 'cls')).message).to.contain('non-finite');
    expect(failure(() => responseToUnitVectors([[[1, 0], [1]]], 1, 2, 'mean')).message).to.contain('1-d token vector');
  });
});

describe('l2Normalize', () => {
  it('returns a unit-length copy and leaves its input alone', () => {
    const input = Float32Array.from([1, 2, 2]);
    const unit = l2Normalize(input)!;
    expect(norm(unit)).to.be.closeTo(1, 1e-6);
    expect(Array.from(input)).to.deep.equal([1, 2, 2]);
  });

  it('has no answer for a zero vector', () => {
    expect(l2Normalize(new Float32Array(3))).to.equal(undefined);
  });
});
