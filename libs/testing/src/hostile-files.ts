import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

/**
 * A PDF built to be expensive to read: every page is `operations` stroked path segments and no text at all, so
 * the text layer is empty and each page must be rendered for OCR. The content streams are deflated, so the file
 * stays small (a few hundred KB) while each page costs seconds of rendering.
 */
export function hostilePdf(options: { pages?: number; operations?: number; seed?: number } = {}): Buffer {
  const pages = options.pages ?? 12;
  const operations = options.operations ?? 250_000;
  let state = options.seed ?? 1;
  // A small LCG: the same seed gives the same file, and the segments go everywhere on the page.
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const objects: Buffer[] = [];
  const add = (body: string | Buffer) => objects.push(Buffer.isBuffer(body) ? body : Buffer.from(body));
  const pageIds = Array.from({ length: pages }, (_, i) => 3 + i * 2);
  add('<< /Type /Catalog /Pages 2 0 R >>');
  add(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages} >>`);
  for (let p = 0; p < pages; p++) {
    add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${pageIds[p]! + 1} 0 R >>`);
    const ops: string[] = ['0.5 w'];
    for (let i = 0; i < operations; i++) {
      ops.push(`${(next() * 612).toFixed(1)} ${(next() * 792).toFixed(1)} m ${(next() * 612).toFixed(1)} ${(next() * 792).toFixed(1)} l S`);
    }
    const data = deflateSync(Buffer.from(ops.join('\n')));
    add(Buffer.concat([Buffer.from(`<< /Length ${data.length} /Filter /FlateDecode >>\nstream\n`), data, Buffer.from('\nendstream')]));
  }
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  let offset = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    const object = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    offsets.push(offset);
    offset += object.length;
    parts.push(object);
  });
  const entries = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  parts.push(Buffer.from(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${entries}`));
  parts.push(Buffer.from(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`));
  return Buffer.concat(parts);
}

/**
 * A decompression bomb the edge still accepts: an interlaced 16-bit RGBA PNG of one flat colour, `side` x `side`
 * pixels (just under the 50-megapixel limit by default), about 600 KB on the wire. Interlacing makes a decoder hold
 * the whole image in memory (about 400 MB at the default size) before it can shrink it.
 */
export async function pixelBombPng(side = 7_000): Promise<Buffer> {
  return sharp({ create: { width: side, height: side, channels: 4, background: { r: 200, g: 30, b: 30, alpha: 1 } } })
    .toColourspace('rgb16')
    .png({ compressionLevel: 9, progressive: true })
    .toBuffer();
}
