import { invalidFeature } from './errors.js';

/** The hash reads a 32x32 grayscale; its 64 bits are the signs of the 8x8 lowest DCT frequencies against their median. */
export const HASH_INPUT_SIDE = 32;
const KEPT = 8;

const COSINES: Float64Array[] = Array.from({ length: KEPT }, (_, frequency) =>
  Float64Array.from({ length: HASH_INPUT_SIDE }, (_, x) => Math.cos(((2 * x + 1) * frequency * Math.PI) / (2 * HASH_INPUT_SIDE))),
);
const SCALE = (frequency: number) => Math.sqrt((frequency === 0 ? 1 : 2) / HASH_INPUT_SIDE);

/**
 * pHash (Zauner 2010): DCT-II of a 32x32 grayscale, the top-left 8x8 coefficients compared with their median.
 * Low frequencies survive resizing, recompression and mild colour changes, so near-duplicates land a few bits
 * apart. (The threshold is the median of the 63 AC coefficients.) `gray` is row-major, 32x32, any scale. Returns 16 lowercase hex digits, first bit = coefficient (0,0).
 */
export function perceptualHash(gray: ArrayLike<number>): string {
  const n = HASH_INPUT_SIDE;
  if (gray.length !== n * n) throw invalidFeature(`perceptualHash needs ${n * n} values, got ${gray.length}`);
  // Separable DCT: rows first, then columns, keeping only the 8 lowest frequencies each way.
  const rows = new Float64Array(n * KEPT);
  for (let y = 0; y < n; y++) {
    for (let u = 0; u < KEPT; u++) {
      const cos = COSINES[u] as Float64Array;
      let sum = 0;
      for (let x = 0; x < n; x++) sum += (gray[y * n + x] ?? 0) * (cos[x] ?? 0);
      rows[y * KEPT + u] = sum * SCALE(u);
    }
  }
  const coefficients = new Float64Array(KEPT * KEPT);
  for (let v = 0; v < KEPT; v++) {
    const cos = COSINES[v] as Float64Array;
    for (let u = 0; u < KEPT; u++) {
      let sum = 0;
      for (let y = 0; y < n; y++) sum += (rows[y * KEPT + u] ?? 0) * (cos[y] ?? 0);
      coefficients[v * KEPT + u] = sum * SCALE(v);
    }
  }
  // The median of the 63 AC terms only: then a brightness shift, which moves nothing but the DC term, cannot
  // move the threshold for the other bits.
  const median = Float64Array.from(coefficients.subarray(1)).sort()[31] ?? 0;
  let hex = '';
  for (let nibble = 0; nibble < 16; nibble++) {
    let value = 0;
    for (let bit = 0; bit < 4; bit++) value = (value << 1) | ((coefficients[nibble * 4 + bit] ?? 0) > median ? 1 : 0);
    hex += value.toString(16);
  }
  return hex;
}

const HASH_PATTERN = /^[0-9a-f]{16}$/i;
const BITS_IN_NIBBLE = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4];

/** Bits that differ between two perceptual hashes: 0 identical, <= ~8 the same picture, ~32 unrelated. */
export function hammingDistance(a: string, b: string): number {
  if (!HASH_PATTERN.test(a) || !HASH_PATTERN.test(b)) throw invalidFeature('perceptual hashes are 16 hex digits');
  let distance = 0;
  for (let i = 0; i < 16; i++) distance += BITS_IN_NIBBLE[parseInt(a[i] as string, 16) ^ parseInt(b[i] as string, 16)] ?? 0;
  return distance;
}
