import { expect } from 'chai';
import sharp from 'sharp';
import { makePreview } from './preview.js';
import { jpegWithExif, landscape, rejection } from './spec-images.js';

describe('makePreview', () => {
  it('fits a large image inside 512x512, keeping its aspect, as WebP', async () => {
    const preview = await makePreview(await sharp(await landscape(1600, 1200)).jpeg().toBuffer());
    expect(preview).to.include({ contentType: 'image/webp', width: 512, height: 384 });
    const metadata = await sharp(preview.bytes).metadata();
    expect(metadata).to.include({ format: 'webp', width: 512, height: 384 });
  });

  it('never enlarges a small image', async () => {
    const preview = await makePreview(await landscape(200, 150));
    expect(preview).to.include({ width: 200, height: 150 });
  });

  it('applies the EXIF orientation and strips every piece of metadata', async () => {
    // Red on the left, blue on the right, stored sideways: orientation 6 means "rotate 90 degrees clockwise".
    const turned = await jpegWithExif(
      { IFD0: { Make: 'Spy Camera', Artist: 'Someone' }, IFD2: { DateTimeOriginal: '2021:03:04 05:06:07' } },
      6,
    );
    const source = await sharp(turned).metadata();
    expect(source.exif).to.exist;
    const preview = await makePreview(turned);
    expect(preview).to.include({ width: 80, height: 120 });
    const metadata = await sharp(preview.bytes).metadata();
    expect(metadata.exif).to.equal(undefined);
    expect(metadata.icc).to.equal(undefined);
    expect(metadata.xmp).to.equal(undefined);
    expect(metadata.orientation).to.equal(undefined);
    expect(preview.bytes.includes(Buffer.from('Spy Camera'))).to.equal(false);
    const { data } = await sharp(preview.bytes).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * 80 + x) * 3, (y * 80 + x) * 3 + 3)];
    const [topR, , topB] = pixel(40, 10) as [number, number, number];
    const [bottomR, , bottomB] = pixel(40, 110) as [number, number, number];
    expect(topR).to.be.above(200);
    expect(topB).to.be.below(60);
    expect(bottomB).to.be.above(200);
    expect(bottomR).to.be.below(60);
  });

  it('is a fraction of the source size', async () => {
    const source = await sharp(await landscape(1600, 1200)).png().toBuffer();
    const preview = await makePreview(source);
    expect(preview.bytes.length).to.be.below(source.length / 5);
  });

  it('refuses what inspectImage refuses', async () => {
    expect(await rejection(makePreview(Buffer.from('<svg/>')))).to.include({ code: 'IMAGE.UNSUPPORTED_FORMAT' });
    const jpeg = await sharp(await landscape()).jpeg().toBuffer();
    expect(await rejection(makePreview(jpeg.subarray(0, jpeg.length - 200)))).to.include({ code: 'IMAGE.UNREADABLE', status: 400 });
  });
});
