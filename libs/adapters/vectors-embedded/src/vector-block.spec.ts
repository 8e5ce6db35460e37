import { expect } from 'chai';
import { simdAvailable } from './simd-dot.js';
import { createBlock, paddedStride, type VectorBlock } from './vector-block.js';

function fill(block: VectorBlock, rows: number, dims: number): Float32Array {
  for (let r = 0; r < rows; r++) for (let j = 0; j < dims; j++) block.rows[r * block.stride + j] = Math.sin(r * 7 + j);
  const query = Float32Array.from({ length: dims }, (_, j) => Math.cos(j));
  block.setQuery(query);
  return query;
}

function expectScores(block: VectorBlock, query: Float32Array, rows: number, dims: number): void {
  for (let r = 0; r < rows; r++) {
    let expected = 0;
    for (let j = 0; j < dims; j++) expected += block.rows[r * block.stride + j]! * query[j]!;
    expect(block.scores[r]).to.be.closeTo(expected, 1e-3);
  }
}

describe('vector blocks', () => {
  it('has WebAssembly SIMD on this runtime (else kNN falls back to the slower JS loop)', () => {
    expect(simdAvailable()).to.equal(true);
  });

  it('moves a growing index from plain arrays to WebAssembly memory', () => {
    const stride = paddedStride(384);
    let block = createBlock(stride, 1024);
    expect(block.kind).to.equal('js');
    const query = fill(block, 100, 384);
    block = block.grow(4096, 100);
    expect(block.kind).to.equal('wasm');
    block.setQuery(query);
    block.score(0, 100);
    expectScores(block, query, 100, 384);
  });

  it('pads rows to a multiple of 16 floats', () => {
    expect([1, 16, 17, 384].map(paddedStride)).to.deep.equal([16, 16, 32, 384]);
  });

  for (const [kind, capacity] of [['js', 64], ['wasm', 32_768]] as const) {
    it(`scores rows against the query and keeps rows when growing (${kind})`, () => {
      const dims = 37;
      let block = createBlock(paddedStride(dims), capacity);
      expect(block.kind).to.equal(kind);
      const rows = 50;
      const query = fill(block, rows, dims);
      block.score(0, rows);
      expectScores(block, query, rows, dims);
      block.score(10, 5); // a sub-range, as the time filter scores runs
      expectScores(block, query, 15, dims);
      block = block.grow(capacity * 2, rows);
      expect(block.capacity).to.equal(capacity * 2);
      expect(block.kind).to.equal(kind);
      block.setQuery(query);
      block.score(0, rows);
      expectScores(block, query, rows, dims);
    });
  }
});
