/**
 * Proleptic Gregorian calendar arithmetic on plain dates, with no time zone involved. Date.UTC is used only as a
 * day counter, so the host's zone can never leak in.
 */

/** A calendar date; month is 1-12. */
export interface CivilDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

/** A wall-clock reading in some zone. */
export interface WallTime extends CivilDate {
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly millisecond: number;
}

const DAY_MS = 86_400_000;

function utcMidnight(date: CivilDate): number {
  const d = new Date(Date.UTC(2000, date.month - 1, date.day));
  d.setUTCFullYear(date.year);
  return d.getTime();
}

function fromUtcMs(ms: number): CivilDate {
  const d = new Date(ms);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** Milliseconds the wall time would be if it were read as UTC; the basis of every zone conversion. */
export function wallAsUtc(wall: WallTime): number {
  return utcMidnight(wall) + ((wall.hour * 60 + wall.minute) * 60 + wall.second) * 1000 + wall.millisecond;
}

export function wallFromUtcMs(ms: number): WallTime {
  const d = new Date(ms);
  return {
    year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(),
    hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds(), millisecond: d.getUTCMilliseconds(),
  };
}

export function midnight(date: CivilDate): WallTime {
  return { year: date.year, month: date.month, day: date.day, hour: 0, minute: 0, second: 0, millisecond: 0 };
}

export function addDays(date: CivilDate, days: number): CivilDate {
  return fromUtcMs(utcMidnight(date) + days * DAY_MS);
}

/** The instant `years` later on the UTC calendar (earlier when negative); Feb 29 becomes Mar 1 in a common year. */
export function addYearsToInstant(epochMs: number, years: number): number {
  const date = new Date(epochMs);
  date.setUTCFullYear(date.getUTCFullYear() + years);
  return date.getTime();
}

/** Adds months, clamping the day to the target month's length (Jan 31 + 1 month = Feb 28). */
export function addMonths(date: CivilDate, months: number): CivilDate {
  const index = date.year * 12 + (date.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12 + 1;
  return { year, month, day: Math.min(date.day, daysInMonth(year, month)) };
}

export function daysInMonth(year: number, month: number): number {
  const firstOfNext = month === 12 ? { year: year + 1, month: 1, day: 1 } : { year, month: month + 1, day: 1 };
  return addDays(firstOfNext, -1).day;
}

/** 0 = Sunday ... 6 = Saturday, as in Date#getDay. */
export function weekday(date: CivilDate): number {
  return new Date(utcMidnight(date)).getUTCDay();
}

/** The Monday that starts the ISO week containing the date. */
export function mondayOf(date: CivilDate): CivilDate {
  return addDays(date, -((weekday(date) + 6) % 7));
}

/** ISO 8601 week numbering: weeks start on Monday and belong to the year that holds their Thursday. */
export function isoWeek(date: CivilDate): { year: number; week: number } {
  const thursday = addDays(mondayOf(date), 3);
  const firstOfYear = utcMidnight({ year: thursday.year, month: 1, day: 1 });
  return { year: thursday.year, week: Math.floor((utcMidnight(thursday) - firstOfYear) / DAY_MS / 7) + 1 };
}

export function compareDates(a: CivilDate, b: CivilDate): number {
  return utcMidnight(a) - utcMidnight(b);
}

function pad(value: number, width: number): string {
  const text = String(Math.abs(value)).padStart(width, '0');
  return value < 0 ? `-${text}` : text;
}

export function formatYear(year: number): string {
  return pad(year, 4);
}

export function formatMonth(year: number, month: number): string {
  return `${formatYear(year)}-${pad(month, 2)}`;
}

export function formatDate(date: CivilDate): string {
  return `${formatMonth(date.year, date.month)}-${pad(date.day, 2)}`;
}

export function formatIsoWeek(date: CivilDate): string {
  const { year, week } = isoWeek(date);
  return `${formatYear(year)}-W${pad(week, 2)}`;
}

export function formatClock(wall: WallTime): string {
  return `${pad(wall.hour, 2)}:${pad(wall.minute, 2)}:${pad(wall.second, 2)}`;
}

export function formatOffset(offsetMinutes: number): string {
  if (offsetMinutes === 0) return 'Z';
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${sign}${pad(Math.floor(abs / 60), 2)}:${pad(abs % 60, 2)}`;
}
