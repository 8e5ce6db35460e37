import { capturedAtFromExif } from './captured-at.js';
import { rasterToOklab, type Oklab } from './colour-space.js';
import { dominantColours, type DominantColour } from './dominant-colours.js';
import { featureRaster, RASTER_SIDE } from './feature-raster.js';
import type { ImageFormat } from './formats.js';
import { readImageHeader } from './header.js';
import { resolveImageLimits, type ImageLimits } from './limits.js';
import { HASH_INPUT_SIDE, perceptualHash } from './perceptual-hash.js';
import { DESCRIPTOR_VERSION, visualDescriptor } from './visual-descriptor.js';

export interface ImageFeatures {
  /** As displayed, after EXIF orientation. */
  width: number;
  height: number;
  format: ImageFormat;
  /** Up to 5, largest first; fewer when the image has fewer distinct colours. */
  dominantColours: DominantColour[];
  /** 64-bit DCT pHash as 16 hex digits; compare with hammingDistance. */
  perceptualHash: string;
  /** Epoch ms from EXIF DateTimeOriginal (else CreateDate), or null when absent or implausible. */
  capturedAt: number | null;
  /** Unit length, VISUAL_DESCRIPTOR_DIMS long; compare with descriptorSimilarity. */
  visualDescriptor: Float32Array;
  /** Changes whenever the descriptor or hash would; vectors of different versions are not comparable. */
  descriptorVersion: string;
}

export interface AnalyzeOptions {
  /**
   * The reference for "a capture time in the future is impossible". Pipeline stages pass the time the request
   * was accepted, so a replay gives the same answer; the wall clock is only the default for ad-hoc use.
   */
  now?: number;
  limits?: Partial<ImageLimits>;
}

/** Deterministic: the same bytes (and `now`) give the same features, bit for bit, on the same build. */
export async function analyzeImage(bytes: Buffer, options: AnalyzeOptions = {}): Promise<ImageFeatures> {
  const limits = resolveImageLimits(options.limits);
  const header = await readImageHeader(bytes, limits);
  const pixels = rasterToOklab(await featureRaster(bytes, header, limits), RASTER_SIDE * RASTER_SIDE);
  return {
    width: header.width,
    height: header.height,
    format: header.format,
    dominantColours: dominantColours(pixels),
    perceptualHash: perceptualHash(halveLightness(pixels, RASTER_SIDE)),
    capturedAt: capturedAtFromExif(header.exif, options.now ?? Date.now()),
    visualDescriptor: visualDescriptor(pixels),
    descriptorVersion: DESCRIPTOR_VERSION,
  };
}

/** 2x2 box average of OKLab lightness: the 32x32 grayscale the hash reads. */
function halveLightness(pixels: readonly Oklab[], side: number): Float64Array {
  const half = side / 2;
  if (half !== HASH_INPUT_SIDE) throw new Error('the feature raster must be twice the hash input');
  const out = new Float64Array(half * half);
  for (let y = 0; y < half; y++) {
    for (let x = 0; x < half; x++) {
      const at = (dy: number, dx: number) => pixels[(2 * y + dy) * side + 2 * x + dx]?.l ?? 0;
      out[y * half + x] = (at(0, 0) + at(0, 1) + at(1, 0) + at(1, 1)) / 4;
    }
  }
  return out;
}
