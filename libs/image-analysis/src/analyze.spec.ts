import { expect } from 'chai';
import sharp from 'sharp';
import { analyzeImage, type ImageFeatures } from './analyze.js';
import { hammingDistance } from './perceptual-hash.js';
import { DESCRIPTOR_VERSION, descriptorSimilarity, VISUAL_DESCRIPTOR_DIMS } from './visual-descriptor.js';
import { halves, jpegWithExif, landscape, nightStripes, rejection } from './spec-images.js';

describe('analyzeImage', () => {
  let original: ImageFeatures;
  let nearDuplicate: ImageFeatures;
  let different: ImageFeatures;
  let originalBytes: Buffer;

  before(async () => {
    originalBytes = await landscape(640, 480);
    original = await analyzeImage(originalBytes);
    // The same picture after a typical trip through a chat app: half the size, JPEG quality 70.
    nearDuplicate = await analyzeImage(await sharp(originalBytes).resize(320, 240).jpeg({ quality: 70 }).toBuffer());
    different = await analyzeImage(await nightStripes(640, 480));
  });

  it('describes the image', () => {
    expect(original).to.include({ width: 640, height: 480, format: 'png', capturedAt: null, descriptorVersion: DESCRIPTOR_VERSION });
    expect(original.perceptualHash).to.match(/^[0-9a-f]{16}$/);
    expect(original.visualDescriptor).to.be.instanceOf(Float32Array).with.length(VISUAL_DESCRIPTOR_DIMS);
    expect(Math.hypot(...original.visualDescriptor)).to.be.closeTo(1, 1e-6);
    expect(original.dominantColours.length).to.be.within(3, 5);
    expect(original.dominantColours.map((c) => c.name)).to.include.members(['green', 'blue']);
    expect(original.dominantColours.reduce((sum, c) => sum + c.share, 0)).to.be.closeTo(1, 1e-3);
  });

  it('is deterministic: the same bytes give the same features, bit for bit', async () => {
    const again = await analyzeImage(Buffer.from(originalBytes));
    expect(Buffer.from(again.visualDescriptor.buffer).equals(Buffer.from(original.visualDescriptor.buffer))).to.equal(true);
    expect({ ...again, visualDescriptor: null }).to.deep.equal({ ...original, visualDescriptor: null });
  });

  it('finds a resized, recompressed copy close (hash distance <= 6, cosine > 0.9)', () => {
    // Measured when written: distance 0, cosine 0.9994.
    expect(hammingDistance(original.perceptualHash, nearDuplicate.perceptualHash)).to.be.at.most(6);
    expect(descriptorSimilarity(original.visualDescriptor, nearDuplicate.visualDescriptor)).to.be.above(0.9);
  });

  it('finds a picture with other colours and layout far (hash distance > 16, cosine well below)', () => {
    // Measured when written: distance 34, cosine 0.285.
    expect(hammingDistance(original.perceptualHash, different.perceptualHash)).to.be.above(16);
    const near = descriptorSimilarity(original.visualDescriptor, nearDuplicate.visualDescriptor);
    expect(descriptorSimilarity(original.visualDescriptor, different.visualDescriptor)).to.be.below(Math.min(0.6, near - 0.3));
  });

  it('names the two halves of a red and blue image with shares of one half each', async () => {
    const features = await analyzeImage(await halves('#ff0000', '#0000ff'));
    const byName = Object.fromEntries(features.dominantColours.map((c) => [c.name, c.share]));
    expect(Object.keys(byName).sort()).to.deep.equal(['blue', 'red']);
    expect(byName['red']).to.be.closeTo(0.5, 0.03);
    expect(byName['blue']).to.be.closeTo(0.5, 0.03);
  });

  it('reads the capture time from EXIF against the given now', async () => {
    const photo = await jpegWithExif({ IFD2: { DateTimeOriginal: '2023:08:09 10:11:12', OffsetTimeOriginal: '+01:00' } });
    expect((await analyzeImage(photo, { now: Date.UTC(2024, 0, 1) })).capturedAt).to.equal(Date.UTC(2023, 7, 9, 9, 11, 12));
    expect((await analyzeImage(photo, { now: Date.UTC(2023, 0, 1) })).capturedAt).to.equal(null);
  });

  it('analyses the upright picture: a copy stored sideways with an orientation tag hashes the same', async () => {
    const upright = await sharp(originalBytes).jpeg({ quality: 90 }).toBuffer();
    const sideways = await sharp(originalBytes).rotate(-90).jpeg({ quality: 90 }).withMetadata({ orientation: 6 }).toBuffer();
    const [a, b] = await Promise.all([analyzeImage(upright), analyzeImage(sideways)]);
    expect(b).to.include({ width: 640, height: 480 });
    expect(hammingDistance(a.perceptualHash, b.perceptualHash)).to.be.at.most(4);
  });

  it('puts transparent areas on white', async () => {
    const logo = await sharp({ create: { width: 64, height: 64, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .composite([{ input: { create: { width: 32, height: 64, channels: 4, background: '#3f9b3a' } }, left: 0, top: 0 }])
      .png()
      .toBuffer();
    const names = (await analyzeImage(logo)).dominantColours.map((c) => c.name).sort();
    expect(names).to.deep.equal(['green', 'white']);
  });

  it('refuses what inspectImage refuses, with the same codes', async () => {
    expect(await rejection(analyzeImage(Buffer.from('<svg/>')))).to.include({ code: 'IMAGE.UNSUPPORTED_FORMAT' });
    expect(await rejection(analyzeImage(originalBytes, { limits: { maxBytes: 10 } }))).to.include({ code: 'IMAGE.TOO_LARGE' });
    const jpeg = await sharp(originalBytes).jpeg().toBuffer();
    expect(await rejection(analyzeImage(jpeg.subarray(0, jpeg.length >> 1)))).to.include({ code: 'IMAGE.UNREADABLE' });
  });
});
