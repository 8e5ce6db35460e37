/**
 * The allow-list. Raster formats only: SVG (and anything else XML or HTML) can carry script and external
 * references, so it is refused before it reaches a parser, as are formats sharp cannot decode here.
 */
export const IMAGE_FORMATS = ['jpeg', 'png', 'webp', 'gif', 'tiff', 'avif', 'heif'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

export const CONTENT_TYPES: Readonly<Record<ImageFormat, string>> = Object.freeze({
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  tiff: 'image/tiff',
  avif: 'image/avif',
  heif: 'image/heic',
});

/** What the first bytes say. `accepted` is an allowed container; anything else is named so errors can say what was sent. */
export type Sniffed =
  | { accepted: true; format: ImageFormat | 'isobmff-image' }
  | { accepted: false; detected: string; why: string };

const SCRIPT_CAPABLE = 'a markup format that can carry script and external references; send a raster image (JPEG, PNG, WebP, GIF, TIFF, AVIF, HEIF)';

const OTHER_SIGNATURES: ReadonlyArray<{ detected: string; test: (b: Buffer) => boolean }> = [
  { detected: 'pdf', test: (b) => startsWith(b, [0x25, 0x50, 0x44, 0x46, 0x2d]) },
  { detected: 'bmp', test: (b) => startsWith(b, [0x42, 0x4d]) && b.length > 14 },
  { detected: 'ico', test: (b) => startsWith(b, [0x00, 0x00, 0x01, 0x00]) },
  { detected: 'psd', test: (b) => startsWith(b, [0x38, 0x42, 0x50, 0x53]) },
  { detected: 'jpeg-xl', test: (b) => startsWith(b, [0xff, 0x0a]) || ascii(b, 4, 8) === 'JXL ' },
  { detected: 'jpeg-2000', test: (b) => ascii(b, 4, 8) === 'jP  ' },
  { detected: 'gzip', test: (b) => startsWith(b, [0x1f, 0x8b]) },
];

const AVIF_BRANDS = new Set(['avif', 'avis']);
const HEIF_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1']);

export function sniffFormat(bytes: Buffer): Sniffed | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { accepted: true, format: 'jpeg' };
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { accepted: true, format: 'png' };
  if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') return { accepted: true, format: 'gif' };
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return { accepted: true, format: 'webp' };
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return { accepted: true, format: 'tiff' };
  if (ascii(bytes, 4, 8) === 'ftyp') return sniffIsoBmff(bytes);
  const markup = sniffMarkup(bytes);
  if (markup) return { accepted: false, detected: markup, why: `${markup.toUpperCase()} is ${SCRIPT_CAPABLE}` };
  const other = OTHER_SIGNATURES.find((signature) => signature.test(bytes));
  if (other) return { accepted: false, detected: other.detected, why: `${other.detected} is not an accepted image format` };
  return null;
}

/** AVIF and HEIF share the ISO-BMFF container; sharp's compression (av1 or hevc) makes the final call. */
function sniffIsoBmff(bytes: Buffer): Sniffed {
  const boxSize = bytes.readUInt32BE(0);
  const end = Math.min(bytes.length, boxSize >= 16 ? boxSize : 16, 256);
  const brands: string[] = [ascii(bytes, 8, 12)];
  for (let offset = 16; offset + 4 <= end; offset += 4) brands.push(ascii(bytes, offset, offset + 4));
  if (brands.some((brand) => AVIF_BRANDS.has(brand) || HEIF_BRANDS.has(brand))) return { accepted: true, format: 'isobmff-image' };
  return { accepted: false, detected: `iso-bmff:${brands[0]?.trim()}`, why: 'an ISO-BMFF file that is not AVIF or HEIF (a video?) is not an accepted image format' };
}

function sniffMarkup(bytes: Buffer): string | null {
  let text = bytes.subarray(0, 2048).toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  text = text.trimStart().toLowerCase();
  if (!text.startsWith('<')) return null;
  if (text.includes('<svg')) return 'svg';
  if (text.includes('<html') || text.startsWith('<!doctype html')) return 'html';
  return 'xml';
}

function startsWith(bytes: Buffer, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((byte, index) => bytes[index] === byte);
}

function ascii(bytes: Buffer, start: number, end: number): string {
  return bytes.length >= end ? bytes.toString('latin1', start, end) : '';
}
