import { ConfigError } from '@memory/platform';

/** What the edge accepts before anything is stored. Every analysis entry point enforces the same limits. */
export interface ImageLimits {
  /** Encoded size in bytes (after base64 decoding). */
  maxBytes: number;
  /** Decoded width x height. Checked from the header, before any pixel is decoded. */
  maxPixels: number;
  /** Longest side in pixels: refuses 100000x10 strips that slip under the pixel count but not under a decoder. */
  maxSide: number;
}

export const IMAGE_LIMITS: Readonly<ImageLimits> = Object.freeze({
  maxBytes: 15 * 1024 * 1024,
  maxPixels: 50_000_000,
  maxSide: 20_000,
});

export function resolveImageLimits(overrides: Partial<ImageLimits> = {}): ImageLimits {
  const limits = { ...IMAGE_LIMITS, ...dropUndefined(overrides) };
  const bad = (Object.keys(IMAGE_LIMITS) as Array<keyof ImageLimits>).filter(
    (key) => !Number.isSafeInteger(limits[key]) || limits[key] <= 0,
  );
  if (bad.length) throw new ConfigError(`image limits must be positive whole numbers: ${bad.join(', ')}`, { limits });
  return limits;
}

function dropUndefined(overrides: Partial<ImageLimits>): Partial<ImageLimits> {
  return Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined));
}
