import type { CivilDate } from './calendar.js';
import { addDays, addMonths, addYearsToInstant, formatDate, formatIsoWeek, formatMonth, formatYear, mondayOf } from './calendar.js';
import { formatInstant, startOfDay, wallToEpoch } from './zone.js';

/**
 * What a time reference denotes, at the granularity the words gave. Each kind has exactly one ISO 8601 spelling
 * and one [start, end) span in the user's zone; see README.md for the table.
 */
export type Period =
  | { readonly kind: 'instant'; readonly epoch: number }
  | { readonly kind: 'day'; readonly date: CivilDate; readonly part?: DayPart }
  | { readonly kind: 'week'; readonly monday: CivilDate }
  | { readonly kind: 'month'; readonly year: number; readonly month: number }
  | { readonly kind: 'year'; readonly year: number };

export type DayPart = 'morning' | 'afternoon' | 'evening' | 'night';

/** Hours [from, to) of a part of a day; night runs into the next morning. */
const DAY_PARTS: Record<DayPart, readonly [number, number]> = {
  morning: [6, 12],
  afternoon: [12, 18],
  evening: [18, 24],
  night: [18, 30],
};

/** A clock time is a point, but "at 5pm" is rarely accurate to the minute: it stands for the hour that starts there. */
export const INSTANT_SPAN_MS = 3_600_000;

export interface Span {
  readonly start: number;
  readonly end: number;
}

function atHour(date: CivilDate, hour: number, zone: string): number {
  const day = addDays(date, Math.floor(hour / 24));
  return wallToEpoch({ ...day, hour: hour % 24, minute: 0, second: 0, millisecond: 0 }, zone);
}

export function periodSpan(period: Period, zone: string): Span {
  switch (period.kind) {
    case 'instant':
      return { start: period.epoch, end: period.epoch + INSTANT_SPAN_MS };
    case 'day': {
      if (period.part) {
        const [from, to] = DAY_PARTS[period.part];
        return { start: atHour(period.date, from, zone), end: atHour(period.date, to, zone) };
      }
      return { start: startOfDay(period.date, zone), end: startOfDay(addDays(period.date, 1), zone) };
    }
    case 'week':
      return { start: startOfDay(period.monday, zone), end: startOfDay(addDays(period.monday, 7), zone) };
    case 'month': {
      const first = { year: period.year, month: period.month, day: 1 };
      return { start: startOfDay(first, zone), end: startOfDay(addMonths(first, 1), zone) };
    }
    case 'year':
      return {
        start: startOfDay({ year: period.year, month: 1, day: 1 }, zone),
        end: startOfDay({ year: period.year + 1, month: 1, day: 1 }, zone),
      };
  }
}

export function periodIso(period: Period, zone: string): string {
  switch (period.kind) {
    case 'instant':
      return formatInstant(period.epoch, zone);
    case 'day':
      return formatDate(period.date);
    case 'week':
      return formatIsoWeek(period.monday);
    case 'month':
      return formatMonth(period.year, period.month);
    case 'year':
      return formatYear(period.year);
  }
}

/**
 * What one reference resolved to: a single period, or a range written as two ("May 1 to May 5", "this weekend")
 * whose span runs from the start of the first to the end of the last. A range that ends on a clock time ends AT
 * that time ("9am-5pm" stops at 17:00), one that ends on a day ends after that day.
 */
export type Resolved =
  | { readonly kind: 'single'; readonly period: Period }
  | { readonly kind: 'range'; readonly from: Period; readonly to: Period };

export function resolvedSpan(resolved: Resolved, zone: string): Span {
  if (resolved.kind === 'single') return periodSpan(resolved.period, zone);
  const from = periodSpan(resolved.from, zone);
  const to = periodSpan(resolved.to, zone);
  const toEnd = resolved.to.kind === 'instant' ? to.start : to.end;
  // A range written backwards still covers both ends rather than nothing.
  const end = toEnd > from.start ? toEnd : Math.max(from.end, to.end);
  return { start: Math.min(from.start, to.start), end };
}

/** The same period `years` later (earlier when negative); the day Feb 29 becomes Feb 28 in a common year. */
export function shiftPeriodYears(period: Period, years: number): Period {
  switch (period.kind) {
    case 'instant':
      return { kind: 'instant', epoch: addYearsToInstant(period.epoch, years) };
    case 'day':
      return { ...period, date: addMonths(period.date, 12 * years) };
    case 'week':
      return { kind: 'week', monday: mondayOf(addMonths(period.monday, 12 * years)) };
    case 'month':
    case 'year':
      return { ...period, year: period.year + years };
  }
}

export function shiftResolvedYears(resolved: Resolved, years: number): Resolved {
  return resolved.kind === 'single'
    ? { kind: 'single', period: shiftPeriodYears(resolved.period, years) }
    : { kind: 'range', from: shiftPeriodYears(resolved.from, years), to: shiftPeriodYears(resolved.to, years) };
}

/** A range is an ISO 8601 interval `start/end`, each side at its own granularity (`2023-05-13/2023-05-14`). */
export function resolvedIso(resolved: Resolved, zone: string): string {
  if (resolved.kind === 'single') return periodIso(resolved.period, zone);
  return `${periodIso(resolved.from, zone)}/${periodIso(resolved.to, zone)}`;
}
