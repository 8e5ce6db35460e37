import { expect } from 'chai';
import sharp from 'sharp';
import { capturedAtFromExif } from './captured-at.js';
import { jpegWithExif } from './spec-images.js';

const NOW = Date.UTC(2024, 5, 1, 12, 0, 0);

async function exifOf(ifd2: Record<string, string>): Promise<Buffer | undefined> {
  return (await sharp(await jpegWithExif({ IFD0: { Make: 'Test' }, IFD2: ifd2 })).metadata()).exif;
}

describe('capturedAtFromExif', () => {
  it('applies OffsetTimeOriginal to the local DateTimeOriginal', async () => {
    const exif = await exifOf({ DateTimeOriginal: '2021:03:04 05:06:07', OffsetTimeOriginal: '+02:00' });
    expect(capturedAtFromExif(exif, NOW)).to.equal(Date.UTC(2021, 2, 4, 3, 6, 7));
    const west = await exifOf({ DateTimeOriginal: '2021:03:04 22:30:00', OffsetTimeOriginal: '-05:30' });
    expect(capturedAtFromExif(west, NOW)).to.equal(Date.UTC(2021, 2, 5, 4, 0, 0));
  });

  it('reads a time without an offset as UTC, with sub-seconds when given', async () => {
    const exif = await exifOf({ DateTimeOriginal: '2019:12:31 23:59:58', SubSecTimeOriginal: '25' });
    expect(capturedAtFromExif(exif, NOW)).to.equal(Date.UTC(2019, 11, 31, 23, 59, 58, 250));
  });

  it('falls back to CreateDate (DateTimeDigitized) with its own offset', async () => {
    const exif = await exifOf({ DateTimeDigitized: '2022:07:08 09:10:11', OffsetTimeDigitized: '+09:00' });
    expect(capturedAtFromExif(exif, NOW)).to.equal(Date.UTC(2022, 6, 8, 0, 10, 11));
  });

  it('prefers DateTimeOriginal over CreateDate', async () => {
    const exif = await exifOf({ DateTimeOriginal: '2020:01:02 03:04:05', DateTimeDigitized: '2023:01:01 00:00:00' });
    expect(capturedAtFromExif(exif, NOW)).to.equal(Date.UTC(2020, 0, 2, 3, 4, 5));
  });

  it('rejects camera-clock defaults before 1990 and times more than a day after now', async () => {
    expect(capturedAtFromExif(await exifOf({ DateTimeOriginal: '1980:01:01 00:00:00' }), NOW)).to.equal(null);
    expect(capturedAtFromExif(await exifOf({ DateTimeOriginal: '0000:00:00 00:00:00' }), NOW)).to.equal(null);
    expect(capturedAtFromExif(await exifOf({ DateTimeOriginal: '2024:06:02 13:00:00' }), NOW)).to.equal(null);
    expect(capturedAtFromExif(await exifOf({ DateTimeOriginal: '2024:06:02 11:00:00' }), NOW)).to.equal(NOW + 23 * 3_600_000);
  });

  it('returns null without EXIF, without a date, or with garbage', async () => {
    expect(capturedAtFromExif(undefined, NOW)).to.equal(null);
    expect(capturedAtFromExif(await exifOf({}), NOW)).to.equal(null);
    expect(capturedAtFromExif(await exifOf({ DateTimeOriginal: 'yesterday' }), NOW)).to.equal(null);
    expect(capturedAtFromExif(Buffer.from('Exif\0\0garbage'), NOW)).to.equal(null);
  });
});
