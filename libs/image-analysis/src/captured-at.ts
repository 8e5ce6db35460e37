import exifReader from 'exif-reader';

/** Cameras reset to 1970, 1980 or 2000 and scanners stamp 0000:00:00; nothing before this is believed. */
export const EARLIEST_CAPTURE = Date.UTC(1990, 0, 1);
/** Clock skew and time zones allowed beyond `now` before a capture time is called impossible. */
export const FUTURE_TOLERANCE_MS = 24 * 60 * 60 * 1000;

type Photo = NonNullable<ReturnType<typeof exifReader>['Photo']>;

const CANDIDATES = [
  { date: 'DateTimeOriginal', offset: 'OffsetTimeOriginal', subSeconds: 'SubSecTimeOriginal' },
  // exif-reader's DateTimeDigitized is the tag exiftool calls CreateDate.
  { date: 'DateTimeDigitized', offset: 'OffsetTimeDigitized', subSeconds: 'SubSecTimeDigitized' },
] as const;

/**
 * When the photo was taken, as epoch milliseconds, or null. EXIF stores local wall-clock time; the offset
 * tags (EXIF 2.31) say which zone, and without one the time is read as UTC, which is at most a day off.
 * The first date tag that parses decides: if it is implausible, the camera clock was wrong, and the other tag
 * came from the same clock.
 */
export function capturedAtFromExif(exif: Buffer | undefined, now: number): number | null {
  if (!exif || exif.length === 0) return null;
  let photo: Photo | undefined;
  try {
    photo = exifReader(exif).Photo;
  } catch {
    return null;
  }
  if (!photo) return null;
  for (const candidate of CANDIDATES) {
    const date = photo[candidate.date];
    if (!(date instanceof Date) || Number.isNaN(date.getTime())) continue;
    const at = date.getTime() - offsetMs(photo[candidate.offset]) + subSecondMs(photo[candidate.subSeconds]);
    return at >= EARLIEST_CAPTURE && at <= now + FUTURE_TOLERANCE_MS ? at : null;
  }
  return null;
}

function offsetMs(value: unknown): number {
  if (typeof value !== 'string') return 0;
  const match = /^([+-])(\d{2}):(\d{2})$/.exec(value.trim());
  if (!match) return 0;
  const hours = Number(match[2]);
  const minutes = Number(match[3]);
  if (hours > 14 || minutes > 59) return 0;
  return (match[1] === '-' ? -1 : 1) * (hours * 60 + minutes) * 60_000;
}

function subSecondMs(value: unknown): number {
  if (typeof value !== 'string') return 0;
  const digits = value.trim();
  if (!/^\d+$/.test(digits)) return 0;
  return Number(digits.slice(0, 3).padEnd(3, '0'));
}
