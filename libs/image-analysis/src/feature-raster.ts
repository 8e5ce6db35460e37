import type { ImageHeader } from './header.js';
import type { ImageLimits } from './limits.js';
import { decodeFailure, openImage } from './decode.js';

/** Side of the square every pixel feature is computed from. */
export const RASTER_SIDE = 64;

/**
 * One decode for all pixel features: upright (EXIF orientation), transparency flattened onto white (so a logo
 * on a transparent background looks as it does on a page), sRGB, squeezed to 64x64 with aspect ignored, so the
 * grid cells of the layout map to the same parts of any picture. Returns packed RGB.
 */
export async function featureRaster(bytes: Buffer, header: ImageHeader, limits: ImageLimits): Promise<Uint8Array> {
  try {
    const { data, info } = await openImage(bytes, limits)
      .rotate()
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .resize(RASTER_SIDE, RASTER_SIDE, { fit: 'fill' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3 || info.width !== RASTER_SIDE || info.height !== RASTER_SIDE) {
      throw new Error(`unexpected raster ${info.width}x${info.height}x${info.channels}`);
    }
    return data;
  } catch (error) {
    throw decodeFailure(error, header.format, bytes.length, limits);
  }
}
