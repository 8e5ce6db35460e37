import { expect } from 'chai';
import sharp from 'sharp';
import { RequestError } from '@memory/platform';
import { inspectImage } from './inspect.js';
import { openImage, decodeFailure } from './decode.js';
import { resolveImageLimits } from './limits.js';
import { headerOnlyPng, jpegWithExif, landscape, rejection } from './spec-images.js';

describe('inspectImage', () => {
  let photo: Buffer;
  before(async () => {
    photo = await landscape(640, 480);
  });

  it('accepts each allowed format and reports its content type and size', async () => {
    const encoders: Array<[string, string, (s: sharp.Sharp) => sharp.Sharp]> = [
      ['jpeg', 'image/jpeg', (s) => s.jpeg()],
      ['png', 'image/png', (s) => s.png()],
      ['webp', 'image/webp', (s) => s.webp()],
      ['gif', 'image/gif', (s) => s.gif()],
      ['tiff', 'image/tiff', (s) => s.tiff()],
      ['avif', 'image/avif', (s) => s.avif({ effort: 0 })],
    ];
    for (const [format, contentType, encode] of encoders) {
      const bytes = await encode(sharp(photo).resize(160, 120)).toBuffer();
      expect(await inspectImage(bytes), format).to.deep.equal({ format, contentType, width: 160, height: 120, bytes: bytes.length });
    }
  });

  it('reports the upright size when EXIF says the camera was turned', async () => {
    const turned = await jpegWithExif({}, 6);
    expect(await inspectImage(turned)).to.include({ width: 80, height: 120 });
  });

  it('refuses SVG as script-capable, with 415, before any parser sees it', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
    const error = await rejection(inspectImage(svg));
    expect(error).to.be.instanceOf(RequestError);
    expect(error).to.include({ code: 'IMAGE.UNSUPPORTED_FORMAT', status: 415 });
    expect(error.message).to.match(/script/);
    expect(error.details).to.include({ detected: 'svg' });
  });

  it('refuses other recognised formats as unsupported, naming them', async () => {
    const error = await rejection(inspectImage(Buffer.from('%PDF-1.4\n1 0 obj\n')));
    expect(error).to.include({ code: 'IMAGE.UNSUPPORTED_FORMAT', status: 415 });
    expect(error.details).to.include({ detected: 'pdf' });
  });

  it('calls unknown bytes unreadable (415) and shows what it found', async () => {
    const error = await rejection(inspectImage(Buffer.from('just some text, not an image')));
    expect(error).to.include({ code: 'IMAGE.UNREADABLE', status: 415 });
    expect(error.details).to.deep.include({ detected: null, leadingBytes: Buffer.from('just some text, ').toString('hex') });
    expect(await rejection(inspectImage(Buffer.alloc(0)))).to.include({ code: 'IMAGE.UNREADABLE' });
  });

  it('fails truncated files that have a valid header (400, with the format and the decoder reason)', async () => {
    const cases: Array<[string, Buffer]> = [
      ['jpeg', await sharp(photo).jpeg({ quality: 90 }).toBuffer()],
      ['jpeg', await sharp(photo).jpeg({ quality: 90, progressive: true }).toBuffer()],
      ['png', await sharp(photo).png().toBuffer()],
      ['webp', await sharp(photo).webp().toBuffer()],
      ['gif', await sharp(photo).gif().toBuffer()],
    ];
    for (const [format, whole] of cases) {
      for (const keep of [0.5, 0.97]) {
        const truncated = whole.subarray(0, Math.floor(whole.length * keep));
        const error = await rejection(inspectImage(truncated));
        expect(error, `${format} cut at ${keep}`).to.include({ code: 'IMAGE.UNREADABLE', status: 400 });
        expect(error.details).to.include({ detected: format });
        expect(error.details?.['reason']).to.be.a('string').and.not.be.empty;
      }
    }
  });

  it('fails a file whose bytes were damaged in the middle', async () => {
    const png = Buffer.from(await sharp(photo).png().toBuffer());
    png.fill(0x55, Math.floor(png.length / 2), Math.floor(png.length / 2) + 64);
    expect(await rejection(inspectImage(png))).to.include({ code: 'IMAGE.UNREADABLE', status: 400 });
  });

  it('refuses more bytes than maxBytes with 413, before reading them', async () => {
    const error = await rejection(inspectImage(photo, { maxBytes: 1000 }));
    expect(error).to.include({ code: 'IMAGE.TOO_LARGE', status: 413 });
    expect(error.details).to.deep.equal({ bytes: photo.length, maxBytes: 1000 });
  });

  it('refuses a decompression bomb from its header alone, without decoding it', async () => {
    // 8000 x 8000 = 64 megapixels promised by a 60-byte file.
    const bomb = headerOnlyPng(8000, 8000);
    const started = performance.now();
    const error = await rejection(inspectImage(bomb));
    expect(performance.now() - started).to.be.below(500);
    expect(error).to.include({ code: 'IMAGE.TOO_MANY_PIXELS', status: 413 });
    expect(error.details).to.include({ width: 8000, height: 8000, maxPixels: 50_000_000 });
  });

  it('refuses a side longer than maxSide even under the pixel limit', async () => {
    const error = await rejection(inspectImage(headerOnlyPng(20_001, 10)));
    expect(error).to.include({ code: 'IMAGE.TOO_MANY_PIXELS' });
    expect(error.details).to.include({ maxSide: 20_000 });
  });

  it('honours a smaller pixel limit on a real image', async () => {
    expect(await rejection(inspectImage(photo, { maxPixels: 100_000 }))).to.include({ code: 'IMAGE.TOO_MANY_PIXELS' });
  });

  it('maps sharp\'s own pixel-limit refusal (limitInputPixels) to IMAGE.TOO_MANY_PIXELS', async () => {
    const limits = resolveImageLimits({ maxPixels: 1000 });
    const failure = await openImage(photo, limits).raw().toBuffer().then(
      () => null,
      (error: unknown) => decodeFailure(error, 'png', photo.length, limits),
    );
    expect(failure).to.include({ code: 'IMAGE.TOO_MANY_PIXELS', status: 413 });
  });
});
