import sharp from 'sharp';
import type { ImageLimits } from './limits.js';
import { tooManyPixels, unreadable, unsupportedFormat } from './errors.js';

/**
 * Every decode in this library starts here. `limitInputPixels` makes libvips refuse an image whose header
 * promises more pixels before it allocates or decodes them (the decompression-bomb guard), and `failOn: 'error'`
 * turns truncated or corrupt pixel data into an error instead of a grey band, while tolerating the harmless
 * warnings real cameras produce. Only the first frame of an animated image is ever read.
 */
export function openImage(bytes: Buffer, limits: ImageLimits): sharp.Sharp {
  return sharp(bytes, { limitInputPixels: limits.maxPixels, failOn: 'error' });
}

/** Maps a sharp failure onto the stable codes; `detected` is what the header claimed. */
export function decodeFailure(error: unknown, detected: string | null, bytes: number, limits: ImageLimits): Error {
  const reason = firstLine(error);
  if (/pixel limit/i.test(reason)) {
    return tooManyPixels(`the image has more than ${limits.maxPixels} pixels`, { detected, maxPixels: limits.maxPixels, reason });
  }
  // sharp's prebuilt libvips reads AVIF but has no HEVC decoder, so most HEIC photos stop here.
  if (detected === 'heif' && /unsupported|codec|decoder/i.test(reason)) {
    return unsupportedFormat('HEIF/HEIC with HEVC compression cannot be decoded here: send JPEG, PNG, WebP or AVIF', { detected, reason });
  }
  return unreadable(
    detected === null ? 'the bytes are not a readable image' : `the ${detected} image is truncated or corrupt and cannot be decoded`,
    { detected, bytes, reason },
  );
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}
