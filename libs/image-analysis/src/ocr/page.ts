import type { ImageHeader } from '../header.js';
import type { ImageLimits } from '../limits.js';
import { decodeFailure, openImage } from '../decode.js';

/** Formats whose compression leaves ringing around glyphs. */
const LOSSY = new Set(['jpeg', 'webp', 'avif', 'heif']);

/**
 * The page the OCR engine sees: upright, transparency on white, sRGB, no larger than maxSide.
 *
 * The PaddleOCR v4 recogniser reads the gap between two words as a space only when the background there is
 * clean; JPEG ringing around glyphs makes it run words together ("INVOICE4417"). A 3x3 median removes the
 * ringing, but it also thins small strokes, which costs words on a clean page; so it is applied only to lossy
 * formats, and only when the page is not being downscaled (shrinking averages the ringing away and would make the
 * median's damage to small text worse).
 */
export async function preparePage(bytes: Buffer, header: ImageHeader, limits: ImageLimits, maxSide: number): Promise<Buffer> {
  const downscaled = Math.max(header.width, header.height) > maxSide;
  try {
    let page = openImage(bytes, limits).rotate().flatten({ background: '#ffffff' }).toColourspace('srgb');
    page = downscaled ? page.resize(maxSide, maxSide, { fit: 'inside' }) : LOSSY.has(header.format) ? page.median(3) : page;
    // Uncompressed: the engine decodes this again at once, and deflate would cost more than it saves.
    return await page.png({ compressionLevel: 0 }).toBuffer();
  } catch (error) {
    throw decodeFailure(error, header.format, bytes.length, limits);
  }
}
