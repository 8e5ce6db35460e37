import { expect } from 'chai';
import { MemoryServiceError } from '@memory/platform';
import { rasterToOklab } from './colour-space.js';
import { DESCRIPTOR_INPUT_SIDE, descriptorSimilarity, VISUAL_DESCRIPTOR_DIMS, visualDescriptor } from './visual-descriptor.js';

const side = DESCRIPTOR_INPUT_SIDE;
function descriptorOf(colourAt: (x: number, y: number) => [number, number, number]) {
  const rgb = new Uint8Array(side * side * 3);
  for (let y = 0; y < side; y++) for (let x = 0; x < side; x++) rgb.set(colourAt(x, y), (y * side + x) * 3);
  return visualDescriptor(rasterToOklab(rgb, side * side));
}
const norm = (v: Float32Array) => Math.hypot(...v);

describe('visualDescriptor', () => {
  it('is a unit-length Float32Array of the exported dimension', () => {
    const flat = descriptorOf(() => [128, 128, 128]);
    const busy = descriptorOf((x, y) => ((x >> 3) + (y >> 3)) % 2 ? [255, 0, 0] : [0, 0, 255]);
    for (const v of [flat, busy]) {
      expect(v).to.be.instanceOf(Float32Array).with.length(VISUAL_DESCRIPTOR_DIMS);
      expect(norm(v)).to.be.closeTo(1, 1e-6);
    }
  });

  it('keeps the layout and edge blocks of a flat image empty instead of amplifying noise', () => {
    const flat = descriptorOf((x, y) => [120 + ((x + y) % 2), 120, 120]);
    expect(norm(flat.subarray(64))).to.be.below(0.05);
  });

  it('puts colour in the first 64 dimensions, layout and edges after them', () => {
    const red = descriptorOf(() => [220, 20, 20]);
    const blue = descriptorOf(() => [20, 20, 220]);
    expect(descriptorSimilarity(red.subarray(0, 64), blue.subarray(0, 64))).to.be.below(0.05);
    const leftDark = descriptorOf((x) => (x < 32 ? [30, 30, 30] : [230, 230, 230]));
    const topDark = descriptorOf((_, y) => (y < 32 ? [30, 30, 30] : [230, 230, 230]));
    expect(descriptorSimilarity(leftDark.subarray(0, 64), topDark.subarray(0, 64))).to.be.above(0.99);
    expect(descriptorSimilarity(leftDark.subarray(64), topDark.subarray(64))).to.be.below(0.3);
  });

  it('refuses input of the wrong size', () => {
    expect(() => visualDescriptor([])).to.throw(MemoryServiceError, /4096/);
  });
});

describe('descriptorSimilarity', () => {
  it('is the cosine', () => {
    expect(descriptorSimilarity([1, 0], [1, 0])).to.equal(1);
    expect(descriptorSimilarity([1, 0], [0, 2])).to.equal(0);
    expect(descriptorSimilarity([1, 1], [-2, -2])).to.be.closeTo(-1, 1e-12);
    expect(descriptorSimilarity([0, 0], [1, 0])).to.equal(0);
  });

  it('refuses vectors of different lengths', () => {
    expect(() => descriptorSimilarity([1, 2], [1, 2, 3])).to.throw(MemoryServiceError).with.property('code', 'IMAGE.INVALID_FEATURE');
  });
});
