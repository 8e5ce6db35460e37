import sharp, { type Metadata } from 'sharp';
import { CONTENT_TYPES, IMAGE_FORMATS, sniffFormat, type ImageFormat } from './formats.js';
import type { ImageLimits } from './limits.js';
import { decodeFailure } from './decode.js';
import { tooLarge, tooManyPixels, unreadable, unsupportedFormat } from './errors.js';

export interface ImageHeader {
  format: ImageFormat;
  contentType: string;
  /** As displayed: EXIF orientations 5-8 swap the stored width and height. */
  width: number;
  height: number;
  bytes: number;
  exif: Buffer | undefined;
}

/**
 * The cheap checks, in the order that touches the least data: byte count, then the signature (so SVG, PDF and
 * friends never reach a parser), then the header through sharp, then the pixel limits. No pixel is decoded here.
 */
export async function readImageHeader(bytes: Buffer, limits: ImageLimits): Promise<ImageHeader> {
  if (!Buffer.isBuffer(bytes)) throw unreadable('the image must be given as a Buffer of encoded bytes', { detected: null, bytes: 0 });
  if (bytes.length === 0) throw unreadable('the image is empty', { detected: null, bytes: 0 });
  if (bytes.length > limits.maxBytes) {
    throw tooLarge(`the image has ${bytes.length} bytes; the limit is ${limits.maxBytes}`, { bytes: bytes.length, maxBytes: limits.maxBytes });
  }
  const sniffed = sniffFormat(bytes);
  if (sniffed === null) {
    throw unreadable('the bytes are not a recognised image format', {
      detected: null,
      bytes: bytes.length,
      leadingBytes: bytes.subarray(0, 16).toString('hex'),
    });
  }
  if (!sniffed.accepted) {
    throw unsupportedFormat(sniffed.why, { detected: sniffed.detected, allowed: [...IMAGE_FORMATS] });
  }
  const claimed = sniffed.format === 'isobmff-image' ? 'heif' : sniffed.format;

  let metadata: Metadata;
  try {
    // Header only, so no pixel limit yet: our own check below can then say how large the image claims to be.
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw decodeFailure(error, claimed, bytes.length, limits);
  }
  const format = formatOf(metadata);
  const agrees = format === sniffed.format || (sniffed.format === 'isobmff-image' && (format === 'avif' || format === 'heif'));
  if (format === null || !agrees) {
    throw unreadable(`the file starts like ${claimed} but decodes as ${metadata.format ?? 'nothing'}`, {
      detected: claimed,
      bytes: bytes.length,
      decodedAs: metadata.format ?? null,
    });
  }
  const { width, height } = metadata;
  if (!width || !height) throw unreadable(`the ${format} header has no dimensions`, { detected: format, bytes: bytes.length });
  if (Math.max(width, height) > limits.maxSide) {
    throw tooManyPixels(`the image is ${width}x${height}; no side may exceed ${limits.maxSide} pixels`, { width, height, maxSide: limits.maxSide });
  }
  if (width * height > limits.maxPixels) {
    throw tooManyPixels(`the image is ${width}x${height} (${width * height} pixels); the limit is ${limits.maxPixels}`, {
      width,
      height,
      maxPixels: limits.maxPixels,
    });
  }
  const swapped = (metadata.orientation ?? 1) >= 5;
  return {
    format,
    contentType: CONTENT_TYPES[format],
    width: swapped ? height : width,
    height: swapped ? width : height,
    bytes: bytes.length,
    exif: metadata.exif,
  };
}

function formatOf(metadata: Metadata): ImageFormat | null {
  switch (metadata.format) {
    case 'jpeg':
    case 'png':
    case 'webp':
    case 'gif':
    case 'tiff':
      return metadata.format;
    case 'heif':
      // libvips reports AVIF as heif: the codec inside tells them apart.
      return metadata.compression === 'av1' ? 'avif' : 'heif';
    default:
      return null;
  }
}
