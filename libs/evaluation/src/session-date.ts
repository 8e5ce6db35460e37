import { MemoryServiceError } from '@memory/platform';

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** "1:56 pm on 8 May, 2023": the one shape LoCoMo writes session times in (the comma is optional, months may be short). */
const SESSION_DATE_TIME = /^\s*(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([a-z]+)\.?,?\s+(\d{4})\s*$/i;

/**
 * A session's date_time as a UTC instant. The dataset gives wall time with no zone; reading it as UTC keeps the
 * calendar day of every session, which is what temporal questions ask about.
 */
export function parseSessionDateTime(text: string): Date {
  const m = SESSION_DATE_TIME.exec(text);
  const fail = (why: string) =>
    new MemoryServiceError('LOCOMO.INVALID_DATE', `session date "${text}" ${why}; expected e.g. "1:56 pm on 8 May, 2023"`);
  if (!m) throw fail('is not in the LoCoMo format');
  const [, h, min, meridiem, d, monthName, y] = m as unknown as [string, string, string, string, string, string, string];
  const month = monthIndex(monthName);
  if (month < 0) throw fail(`names no month ("${monthName}")`);
  const hour12 = Number(h);
  const minute = Number(min);
  if (hour12 < 1 || hour12 > 12 || minute > 59) throw fail('has no such time of day');
  // 12 am is midnight and 12 pm is noon.
  const hour = (hour12 % 12) + (meridiem.toLowerCase() === 'pm' ? 12 : 0);
  const year = Number(y);
  const day = Number(d);
  const date = new Date(Date.UTC(year, month, day, hour, minute));
  // Date.UTC rolls 31 June over into July; a date that moved did not exist.
  if (date.getUTCDate() !== day || date.getUTCMonth() !== month) throw fail('has no such day');
  return date;
}

/** The session time as source.timestamp takes it: an ISO 8601 date-time in UTC. */
export function sessionTimestamp(text: string): string {
  return parseSessionDateTime(text).toISOString();
}

function monthIndex(name: string): number {
  const lower = name.toLowerCase();
  if (lower.length < 3) return -1;
  return MONTHS.findIndex((month) => month === lower || (lower.length <= 4 && month.startsWith(lower)));
}
