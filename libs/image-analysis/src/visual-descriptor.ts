import { chromaOf, hueOf, type Oklab } from './colour-space.js';
import { invalidFeature } from './errors.js';

/**
 * A 128-dimensional, unit-length descriptor for "looks like" search, compared by cosine:
 *
 *   [0, 64)    colour histogram in OKLab. 48 chromatic bins (12 hues x 4 lightness levels) and 16 grey bins
 *              (lightness only); each pixel is split between the two by its chroma and soft-assigned between
 *              neighbouring bins, so small shifts from recompression move weight instead of jumping a bin.
 *              Square-rooted (Hellinger), which keeps one huge background colour from drowning the rest.
 *   [64, 96)   grayscale layout on a 4x4 grid: each cell's mean lightness minus the image's (16), then each
 *              cell's lightness spread (16): where it is bright or dark, where it is busy or flat.
 *   [96, 128)  edge orientations: 8 orientation bins (22.5 degrees, soft) x 4 quadrants, weighted by gradient
 *              strength above a noise floor.
 *
 * Blocks are weighted 0.75 / 0.45 / 0.45 before the whole vector is scaled to unit length. The layout and edge
 * blocks are divided by max(norm, floor), so a nearly flat image keeps a nearly empty block instead of amplified
 * noise. Computed from a 64x64 (aspect ignored) rendering of the upright image.
 */
export const VISUAL_DESCRIPTOR_DIMS = 128;
export const DESCRIPTOR_VERSION = 'oklab-hist64+layout32+edges32/v1';
export const DESCRIPTOR_INPUT_SIDE = 64;

const HUE_BINS = 12;
const CHROMATIC_LIGHTNESS_BINS = 4;
const GREY_BINS = 16;
const GRID = 4;
const ORIENTATIONS = 8;
const WEIGHTS = { colour: 0.75, layout: 0.45, edges: 0.45 };
const LAYOUT_FLOOR = 0.25;
const EDGE_FLOOR = 8;
const GRADIENT_NOISE = 0.02;

/** `pixels` is the 64x64 image in OKLab, row-major. */
export function visualDescriptor(pixels: readonly Oklab[]): Float32Array {
  const side = DESCRIPTOR_INPUT_SIDE;
  if (pixels.length !== side * side) throw invalidFeature(`visualDescriptor needs ${side * side} pixels, got ${pixels.length}`);
  const lightness = Float64Array.from(pixels, (p) => p.l);
  const vector = new Float64Array(VISUAL_DESCRIPTOR_DIMS);
  vector.set(scale(colourHistogram(pixels), WEIGHTS.colour), 0);
  vector.set(scale(softNormalise(layout(lightness, side), LAYOUT_FLOOR), WEIGHTS.layout), 64);
  vector.set(scale(softNormalise(edges(lightness, side), EDGE_FLOOR), WEIGHTS.edges), 96);
  const norm = Math.hypot(...vector);
  return Float32Array.from(vector, (value) => (norm > 0 ? value / norm : 0));
}

/** Cosine similarity in [-1, 1]; descriptors of this library are unit length, but any lengths are handled. */
export function descriptorSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length || a.length === 0) throw invalidFeature(`descriptors must have the same, non-zero length (got ${a.length} and ${b.length})`);
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    aa += x * x;
    bb += y * y;
  }
  return aa > 0 && bb > 0 ? dot / Math.sqrt(aa * bb) : 0;
}

function colourHistogram(pixels: readonly Oklab[]): Float64Array {
  const histogram = new Float64Array(HUE_BINS * CHROMATIC_LIGHTNESS_BINS + GREY_BINS);
  for (const p of pixels) {
    const chromatic = smoothstep(0.02, 0.06, chromaOf(p));
    if (chromatic > 0) {
      const [h0, h1, hFrac] = circularBins(hueOf(p) / (360 / HUE_BINS) - 0.5, HUE_BINS);
      const [l0, l1, lFrac] = linearBins(p.l * CHROMATIC_LIGHTNESS_BINS - 0.5, CHROMATIC_LIGHTNESS_BINS);
      for (const [hue, hw] of [[h0, 1 - hFrac], [h1, hFrac]] as const) {
        for (const [light, lw] of [[l0, 1 - lFrac], [l1, lFrac]] as const) {
          add(histogram, hue * CHROMATIC_LIGHTNESS_BINS + light, chromatic * hw * lw);
        }
      }
    }
    if (chromatic < 1) {
      const [g0, g1, gFrac] = linearBins(p.l * GREY_BINS - 0.5, GREY_BINS);
      const offset = HUE_BINS * CHROMATIC_LIGHTNESS_BINS;
      add(histogram, offset + g0, (1 - chromatic) * (1 - gFrac));
      add(histogram, offset + g1, (1 - chromatic) * gFrac);
    }
  }
  // Each pixel adds exactly 1, so the square roots of the shares already have unit length.
  return histogram.map((value) => Math.sqrt(value / pixels.length));
}

function layout(lightness: Float64Array, side: number): Float64Array {
  const cell = side / GRID;
  const mean = lightness.reduce((sum, value) => sum + value, 0) / lightness.length;
  const out = new Float64Array(GRID * GRID * 2);
  for (let gy = 0; gy < GRID; gy++) {
    for (let gx = 0; gx < GRID; gx++) {
      let sum = 0;
      let sum2 = 0;
      for (let y = gy * cell; y < (gy + 1) * cell; y++) {
        for (let x = gx * cell; x < (gx + 1) * cell; x++) {
          const value = lightness[y * side + x] ?? 0;
          sum += value;
          sum2 += value * value;
        }
      }
      const count = cell * cell;
      const cellMean = sum / count;
      out[gy * GRID + gx] = cellMean - mean;
      out[GRID * GRID + gy * GRID + gx] = Math.sqrt(Math.max(0, sum2 / count - cellMean * cellMean));
    }
  }
  return out;
}

function edges(lightness: Float64Array, side: number): Float64Array {
  const out = new Float64Array(ORIENTATIONS * 4);
  const half = side / 2;
  for (let y = 1; y < side - 1; y++) {
    for (let x = 1; x < side - 1; x++) {
      const gx = (lightness[y * side + x + 1] ?? 0) - (lightness[y * side + x - 1] ?? 0);
      const gy = (lightness[(y + 1) * side + x] ?? 0) - (lightness[(y - 1) * side + x] ?? 0);
      const strength = Math.hypot(gx, gy) - GRADIENT_NOISE;
      if (strength <= 0) continue;
      // Orientation modulo 180 degrees: a dark-to-light edge and a light-to-dark edge along the same line agree.
      let angle = Math.atan2(gy, gx);
      if (angle < 0) angle += Math.PI;
      const [o0, o1, frac] = circularBins((angle / Math.PI) * ORIENTATIONS - 0.5, ORIENTATIONS);
      const quadrant = (y < half ? 0 : 2) + (x < half ? 0 : 1);
      add(out, quadrant * ORIENTATIONS + o0, strength * (1 - frac));
      add(out, quadrant * ORIENTATIONS + o1, strength * frac);
    }
  }
  return out;
}

function add(target: Float64Array, index: number, amount: number): void {
  target[index] = (target[index] ?? 0) + amount;
}

function circularBins(position: number, bins: number): [number, number, number] {
  const floor = Math.floor(position);
  const first = ((floor % bins) + bins) % bins;
  return [first, (first + 1) % bins, position - floor];
}

function linearBins(position: number, bins: number): [number, number, number] {
  const clamped = Math.min(bins - 1, Math.max(0, position));
  const first = Math.min(bins - 2, Math.floor(clamped));
  return [first, first + 1, clamped - first];
}

function softNormalise(block: Float64Array, floor: number): Float64Array {
  const norm = Math.hypot(...block);
  return block.map((value) => value / Math.max(norm, floor));
}

function scale(block: Float64Array, weight: number): Float64Array {
  return block.map((value) => value * weight);
}

function smoothstep(edge0: number, edge1: number, value: number): number {
  const t = Math.min(1, Math.max(0, (value - edge0) / (edge1 - edge0)));
  return t * t * (3 - 2 * t);
}
