import { readImageHeader } from './header.js';
import { resolveImageLimits, type ImageLimits } from './limits.js';
import { decodeFailure, openImage } from './decode.js';

export const PREVIEW_MAX_SIDE = 512;
export const PREVIEW_QUALITY = 80;

export interface ImagePreview {
  bytes: Buffer;
  contentType: 'image/webp';
  width: number;
  height: number;
}

/**
 * A preview safe to serve as-is: upright (EXIF orientation applied, since the tag itself is dropped), at most
 * 512x512 and never enlarged, converted to sRGB, and with no metadata at all (sharp writes none unless asked),
 * so camera serials and GPS positions never leave through the preview URL.
 */
export async function makePreview(bytes: Buffer, limits?: Partial<ImageLimits>): Promise<ImagePreview> {
  const resolved = resolveImageLimits(limits);
  const header = await readImageHeader(bytes, resolved);
  try {
    const { data, info } = await openImage(bytes, resolved)
      .rotate()
      .resize(PREVIEW_MAX_SIDE, PREVIEW_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .webp({ quality: PREVIEW_QUALITY })
      .toBuffer({ resolveWithObject: true });
    return { bytes: data, contentType: 'image/webp', width: info.width, height: info.height };
  } catch (error) {
    throw decodeFailure(error, header.format, bytes.length, resolved);
  }
}
