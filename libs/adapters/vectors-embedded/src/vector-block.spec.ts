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

describe('quantised first pass', () => {
  /** Unit vectors shaped like text embeddings: a shared direction plus noise, so cosines spread over 0.3..0.9. */
  function embeddingLike(count: number, dims: number, seed: number): Float32Array[] {
    let state = seed;
    const random = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) - 0.5;
    const common = Float32Array.from({ length: dims }, random);
    return Array.from({ length: count }, () => Float32Array.from({ length: dims }, (_, j) => common[j]! + 0.8 * random()));
  }

  it('keeps an int8 copy in a large block whose approximate scores stay within 0.01 of the exact ones', () => {
    const dims = 384;
    let block = createBlock(paddedStride(dims), 4096);
    expect(block.quantised).to.equal(true);
    const vectors = embeddingLike(300, dims, 5);
    vectors.forEach((v, slot) => block.writeRow(slot, v));
    block.moveRow(299, 3); // a removal moves the last row into the gap: both copies follow
    block = block.grow(8192, 299);
    expect(block.quantised).to.equal(true);
    const [query] = embeddingLike(1, dims, 99);
    const unit = query!.map((x) => x / Math.hypot(...query!));
    block.setQuery(unit);
    block.score(0, 299);
    const exact = Array.from(block.scores.subarray(0, 299));
    block.scoreApproximate(0, 299);
    for (let r = 0; r < 299; r++) {
      expect(block.scores[r]).to.be.closeTo(exact[r]!, 0.01);
      expect(block.exactScore(r)).to.be.closeTo(exact[r]!, 1e-5);
    }
    const norm = Math.hypot(...vectors[299]!);
    const expected = vectors[299]!.reduce((sum, x, j) => sum + (x / norm) * unit[j]!, 0);
    expect(block.exactScore(3)).to.be.closeTo(expected, 1e-5);
  });

  it('is not used by small blocks, which scan exactly', () => {
    expect(createBlock(paddedStride(384), 64).quantised).to.equal(false);
  });
});
