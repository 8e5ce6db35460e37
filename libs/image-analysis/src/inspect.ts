import type { ImageFormat } from './formats.js';
import { readImageHeader, type ImageHeader } from './header.js';
import { resolveImageLimits, type ImageLimits } from './limits.js';
import { decodeFailure, openImage } from './decode.js';

export interface InspectedImage {
  format: ImageFormat;
  contentType: string;
  /** As displayed, after EXIF orientation. */
  width: number;
  height: number;
  bytes: number;
}

/** Small enough to be cheap, large enough that shrink-on-load still reads every compressed block. */
const VERIFY_SIDE = 256;

/**
 * The edge's gate: throws a RequestError with an IMAGE.* code unless the bytes are an allowed raster format,
 * within the limits, and decode to the end. A plausible header is not enough: the pixel data is decoded
 * (downscaled, streamed, so memory stays small), which is what catches truncated uploads.
 */
export async function inspectImage(bytes: Buffer, limits?: Partial<ImageLimits>): Promise<InspectedImage> {
  const resolved = resolveImageLimits(limits);
  const header = await readImageHeader(bytes, resolved);
  await decodeToTheEnd(bytes, header, resolved);
  return { format: header.format, contentType: header.contentType, width: header.width, height: header.height, bytes: header.bytes };
}

async function decodeToTheEnd(bytes: Buffer, header: ImageHeader, limits: ImageLimits): Promise<void> {
  try {
    await openImage(bytes, limits).resize(VERIFY_SIDE, VERIFY_SIDE, { fit: 'inside', withoutEnlargement: true }).raw().toBuffer();
  } catch (error) {
    throw decodeFailure(error, header.format, bytes.length, limits);
  }
}
