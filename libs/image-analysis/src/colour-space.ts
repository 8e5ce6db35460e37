/**
 * sRGB <-> OKLab (Björn Ottosson, 2020). OKLab is perceptually uniform enough that Euclidean distance works as
 * a colour difference, and its polar form (lightness, chroma, hue) is what colour names and histogram bins use.
 */
export interface Oklab {
  l: number;
  a: number;
  b: number;
}

const TO_LINEAR = Float64Array.from({ length: 256 }, (_, value) => {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});

export function srgbToOklab(r: number, g: number, b: number): Oklab {
  const lr = TO_LINEAR[r] ?? 0;
  const lg = TO_LINEAR[g] ?? 0;
  const lb = TO_LINEAR[b] ?? 0;
  const l = Math.cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb);
  const m = Math.cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb);
  const s = Math.cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb);
  return {
    l: 0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    a: 1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    b: 0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  };
}

/** Back to 8-bit sRGB, clamped to the gamut. */
export function oklabToSrgb({ l: L, a, b }: Oklab): [number, number, number] {
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
  return [
    encode(4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s),
    encode(-1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s),
    encode(-0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s),
  ];
}

export function chromaOf({ a, b }: Oklab): number {
  return Math.hypot(a, b);
}

/** Hue angle in degrees, 0 <= h < 360 (0 is pinkish red, 90 yellow, 140 green, 265 blue). */
export function hueOf({ a, b }: Oklab): number {
  const degrees = (Math.atan2(b, a) * 180) / Math.PI;
  return degrees < 0 ? degrees + 360 : degrees;
}

export function hexOf([r, g, b]: readonly [number, number, number]): string {
  return `#${[r, g, b].map((channel) => channel.toString(16).padStart(2, '0')).join('')}`;
}

/** Converts packed RGB pixels once, so the colour features share the work. */
export function rasterToOklab(rgb: Uint8Array, pixels: number): Oklab[] {
  const out: Oklab[] = new Array(pixels);
  for (let i = 0; i < pixels; i++) out[i] = srgbToOklab(rgb[i * 3] ?? 0, rgb[i * 3 + 1] ?? 0, rgb[i * 3 + 2] ?? 0);
  return out;
}

function encode(linear: number): number {
  const c = linear <= 0.0031308 ? 12.92 * linear : 1.055 * Math.max(linear, 0) ** (1 / 2.4) - 0.055;
  return Math.round(Math.min(1, Math.max(0, c)) * 255);
}
