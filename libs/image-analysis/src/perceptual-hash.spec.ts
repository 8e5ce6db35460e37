import { expect } from 'chai';
import { MemoryServiceError } from '@memory/platform';
import { hammingDistance, HASH_INPUT_SIDE, perceptualHash } from './perceptual-hash.js';

const side = HASH_INPUT_SIDE;
const image = (f: (x: number, y: number) => number) => Float64Array.from({ length: side * side }, (_, i) => f(i % side, Math.floor(i / side)));

describe('perceptualHash', () => {
  it('is 16 hex digits and depends only on the picture', () => {
    const picture = image((x, y) => Math.sin((x * y) / 40) + Math.cos((x - 2 * y) / 6));
    expect(perceptualHash(picture)).to.match(/^[0-9a-f]{16}$/).and.equal(perceptualHash(Float64Array.from(picture)));
  });

  it('ignores brightness and contrast changes', () => {
    const picture = image((x, y) => Math.sin((x * y) / 40) + Math.cos((x - 2 * y) / 6));
    expect(perceptualHash(picture.map((v) => v * 0.5 + 0.3))).to.equal(perceptualHash(picture));
  });

  it('tells a horizontal ramp from a vertical one and from its mirror image', () => {
    const horizontal = perceptualHash(image((x) => x));
    expect(hammingDistance(horizontal, perceptualHash(image((_, y) => y)))).to.be.above(16);
    expect(hammingDistance(horizontal, perceptualHash(image((x) => side - x)))).to.be.above(16);
  });

  it('refuses input of the wrong size', () => {
    expect(() => perceptualHash(new Float64Array(10))).to.throw(MemoryServiceError, /1024/);
  });
});

describe('hammingDistance', () => {
  it('counts differing bits', () => {
    expect(hammingDistance('0000000000000000', '0000000000000000')).to.equal(0);
    expect(hammingDistance('0000000000000000', 'ffffffffffffffff')).to.equal(64);
    expect(hammingDistance('8000000000000001', '0000000000000000')).to.equal(2);
    expect(hammingDistance('ABCDEF0123456789', 'abcdef0123456789')).to.equal(0);
  });

  it('refuses strings that are not 64-bit hashes', () => {
    expect(() => hammingDistance('abc', '0000000000000000')).to.throw(MemoryServiceError).with.property('code', 'IMAGE.INVALID_FEATURE');
    expect(() => hammingDistance('zzzzzzzzzzzzzzzz', '0000000000000000')).to.throw(MemoryServiceError);
  });
});
