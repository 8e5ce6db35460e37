import { crc32 } from 'node:zlib';
import sharp from 'sharp';

/**
 * Pictures drawn for the specs: SVG rendered by sharp, so every test knows exactly which words, colours and
 * shapes are in its image. Not exported from the library.
 */
export async function drawSvg(width: number, height: number, body: string): Promise<sharp.Sharp> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${body}</svg>`;
  // Rendered to PNG first so later encoders start from plain pixels, not from librsvg.
  return sharp(await sharp(Buffer.from(svg)).png().toBuffer());
}

/** A landscape: sky, grass, a sun, a red house with a door and a window. */
export async function landscape(width = 640, height = 480): Promise<Buffer> {
  const image = await drawSvg(
    width,
    height,
    `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#3b7dd8"/><stop offset="1" stop-color="#a9d2f5"/></linearGradient></defs>
     <rect width="100%" height="62%" fill="url(#sky)"/>
     <rect y="62%" width="100%" height="38%" fill="#3f9b3a"/>
     <circle cx="${width * 0.8}" cy="${height * 0.18}" r="${height * 0.1}" fill="#ffd23f"/>
     <rect x="${width * 0.18}" y="${height * 0.38}" width="${width * 0.3}" height="${height * 0.32}" fill="#c0392b"/>
     <polygon points="${width * 0.15},${height * 0.38} ${width * 0.33},${height * 0.2} ${width * 0.51},${height * 0.38}" fill="#5a2d0c"/>
     <rect x="${width * 0.3}" y="${height * 0.52}" width="${width * 0.07}" height="${height * 0.18}" fill="#3d2410"/>
     <rect x="${width * 0.21}" y="${height * 0.45}" width="${width * 0.06}" height="${height * 0.07}" fill="#f4f1de"/>`,
  );
  return image.png().toBuffer();
}

/** Different colours and a different layout: a night scene with diagonal stripes and an orange disc low left. */
export async function nightStripes(width = 640, height = 480): Promise<Buffer> {
  const stripes = Array.from({ length: 8 }, (_, i) => {
    const x = i * (width / 4) - width / 2;
    return `<polygon points="${x},${height} ${x + width / 8},${height} ${x + width / 8 + height},0 ${x + height},0" fill="#e8e8f0"/>`;
  }).join('');
  const image = await drawSvg(
    width,
    height,
    `<rect width="100%" height="100%" fill="#14213d"/>${stripes}
     <circle cx="${width * 0.22}" cy="${height * 0.75}" r="${height * 0.16}" fill="#fb8500"/>`,
  );
  return image.png().toBuffer();
}

export async function halves(left: string, right: string, width = 200, height = 100): Promise<Buffer> {
  const image = await drawSvg(width, height, `<rect width="${width / 2}" height="${height}" fill="${left}"/><rect x="${width / 2}" width="${width / 2}" height="${height}" fill="${right}"/>`);
  return image.png().toBuffer();
}

export async function solid(colour: string, width = 64, height = 48): Promise<sharp.Sharp> {
  return sharp({ create: { width, height, channels: 3, background: colour } });
}

/** Dark text on white, one <text> per line, in a font every Debian has. */
export async function textImage(lines: string[], width = 900, height = 120 + 90 * lines.length, fontSize = 44): Promise<Buffer> {
  const body = lines
    .map((line, i) => `<text x="40" y="${90 + i * 90}" font-family="DejaVu Sans, sans-serif" font-size="${fontSize}" fill="#111111">${line}</text>`)
    .join('');
  const image = await drawSvg(width, height, `<rect width="100%" height="100%" fill="#ffffff"/>${body}`);
  return image.png().toBuffer();
}

/**
 * A PNG that is all header: IHDR claims the given size, followed by an empty IDAT and IEND. A decoder that
 * trusted the header would allocate width x height pixels; the library must refuse it from the header alone.
 */
export function headerOnlyPng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(2, 9); // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', Buffer.alloc(0)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** EXIF as libvips writes it: IFD0 is the main image, IFD2 the Exif sub-IFD (DateTimeOriginal and friends). */
export async function jpegWithExif(exif: { IFD0?: Record<string, string>; IFD2?: Record<string, string> }, orientation?: number): Promise<Buffer> {
  const image = await drawSvg(120, 80, '<rect width="60" height="80" fill="#ff0000"/><rect x="60" width="60" height="80" fill="#0000ff"/>');
  return image.jpeg({ quality: 90 }).withMetadata({ exif, ...(orientation ? { orientation } : {}) }).toBuffer();
}

export async function rejection(promise: Promise<unknown>): Promise<Error & { code?: string; status?: number; details?: Record<string, unknown> }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: string; status?: number; details?: Record<string, unknown> };
  }
  throw new Error('expected a rejection');
}
