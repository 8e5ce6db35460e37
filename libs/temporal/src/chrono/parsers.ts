import type { Parser, ParsingContext, ParsingResult } from 'chrono-node';
import type { CivilDate } from '../calendar.js';
import { addDays, addMonths, mondayOf, wallFromUtcMs, weekday } from '../calendar.js';
import { TAG_CUSTOM, TAG_PREPOSITION_YEAR, TAG_RELATIVE, TAG_WEEK } from './tags.js';

/**
 * Parsers for the periods chrono resolves to a single day or not at all: calendar weeks, weekends, rolling
 * windows ("the past two weeks"), seasons and bare years. Each yields certain year/month/day components (a range
 * when the period spans days) so the generic interpretation can read them like any chrono result.
 */

/** The reference date in the user's zone; the reference always carries an explicit offset, so no host zone leaks in. */
function referenceDate(context: ParsingContext): CivilDate {
  const { instant } = context.reference;
  return wallFromUtcMs(instant.getTime() + context.reference.getTimezoneOffset() * 60_000);
}

type Components = { year: number; month?: number; day?: number };

function dayComponents(date: CivilDate): Components {
  return { year: date.year, month: date.month, day: date.day };
}

function result(
  context: ParsingContext, index: number, text: string, start: Components, end: Components | null, tags: string[],
): ParsingResult {
  const parsed = context.createParsingResult(index, text, start, end ?? undefined);
  parsed.addTags([TAG_CUSTOM, ...tags]);
  return parsed;
}

// Not "the last week of May": that week belongs to the month.
const WEEK_PATTERN =
  /(?<![\w-])(this|last|next|previous|the\s+previous|the\s+following)\s+week(?![\w-])(?!\s+(?:of|in|before|after)\b)/i;

/** "last week" is the previous Monday-to-Sunday calendar week, not the day seven days ago. */
export const weekParser: Parser = {
  pattern: () => WEEK_PATTERN,
  extract(context, match) {
    const word = (match[1] ?? '').toLowerCase().replace(/\s+/g, ' ');
    const shift = word === 'this' ? 0 : word === 'next' || word === 'the following' ? 1 : -1;
    const monday = addDays(mondayOf(referenceDate(context)), 7 * shift);
    return result(context, match.index ?? 0, match[0], dayComponents(monday), dayComponents(addDays(monday, 6)),
      [TAG_WEEK, TAG_RELATIVE]);
  },
};

// A modifier is required: a bare "weekend" is mostly generic ("a weekend trip").
const WEEKEND_PATTERN = /(?<![\w-])(this\s+past|this\s+coming|this|last|next|past|coming|the)\s+weekend(?![\w-])/i;

/**
 * Weekends are Saturday and Sunday. "this" is the current weekend, or the coming one on a weekday; "last" the one
 * before it; "next" the one after it (as chrono's "next Saturday"); "the weekend" the nearer of the last and the
 * coming one, the last on a tie (Wednesday).
 */
export const weekendParser: Parser = {
  pattern: () => WEEKEND_PATTERN,
  extract(context, match) {
    const word = (match[1] ?? '').toLowerCase().replace(/\s+/g, ' ');
    const today = referenceDate(context);
    const day = weekday(today);
    const inWeekend = day === 6 || day === 0;
    const thisSaturday = day === 0 ? addDays(today, -1) : addDays(today, 6 - day);
    let shift: number;
    if (word === 'this') shift = 0;
    else if (word === 'last' || word === 'past' || word === 'this past') shift = -1;
    else if (word === 'next') shift = 1;
    else if (word === 'coming' || word === 'this coming') shift = inWeekend ? 1 : 0;
    else shift = inWeekend || day >= 4 ? 0 : -1;
    const saturday = addDays(thisSaturday, 7 * shift);
    return result(context, match.index ?? 0, match[0], dayComponents(saturday), dayComponents(addDays(saturday, 1)),
      [TAG_RELATIVE]);
  },
};

const LAST_NIGHT_PATTERN = /(?<![\w-])last\s*night(?![\w-])/i;

/**
 * "last night" is the night that began the evening before the reference date, whatever the hour: at 03:00 and at
 * 14:00 on Monday it is Sunday night, at 22:00 on Sunday it is Saturday night. (chrono reads the hour from the
 * host's clock zone, not the user's.)
 */
export const lastNightParser: Parser = {
  pattern: () => LAST_NIGHT_PATTERN,
  extract(context, match) {
    return result(context, match.index ?? 0, match[0], dayComponents(addDays(referenceDate(context), -1)), null,
      [TAG_RELATIVE]);
  },
};

const COUNT_WORDS: Record<string, number> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, few: 3, couple: 2, 'couple of': 2,
};

const ROLLING_PATTERN = new RegExp(
  '(?<![\\w-])(the\\s+)?(past|last|previous|next|coming)\\s+' +
  '(?:(\\d{1,3}|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|few|couple(?:\\s+of)?)\\s+)?' +
  '(day|week|month|year)s?(?![\\w-])(?!\\s+(?:of|in|before|after)\\b)',
  'i',
);

function shift(date: CivilDate, unit: string, count: number): CivilDate {
  if (unit === 'day') return addDays(date, count);
  if (unit === 'week') return addDays(date, 7 * count);
  return addMonths(date, unit === 'month' ? count : 12 * count);
}

/**
 * Rolling windows from or to today: "the past two weeks", "in the last 3 days", "over the past year", "the last
 * month" end today; "the next few months", "the coming weeks" start today. Without a count, "last/next
 * week/month/year" stays the calendar period (weekParser, chrono); with "the" or "past" it is the window. "the last
 * week of May" is left alone: it names a week of something else. A single day is never a window ("the next day"
 * is counted from some event; the false-positive filter drops it).
 */
export const rollingWindowParser: Parser = {
  pattern: () => ROLLING_PATTERN,
  extract(context, match) {
    const hasThe = match[1] !== undefined;
    const word = (match[2] ?? '').toLowerCase();
    const countWord = match[3]?.toLowerCase().replace(/\s+/g, ' ');
    const unit = (match[4] ?? '').toLowerCase();
    if (countWord === undefined && (unit === 'day' || (word !== 'past' && !hasThe))) return null;
    const count = countWord === undefined ? 1 : /^\d+$/.test(countWord) ? Number(countWord) : COUNT_WORDS[countWord];
    if (count === undefined || count < 1) return null;
    const today = referenceDate(context);
    const forward = word === 'next' || word === 'coming';
    const [from, to] = forward ? [today, shift(today, unit, count)] : [shift(today, unit, -count), today];
    return result(context, match.index ?? 0, match[0], dayComponents(from), dayComponents(to), [TAG_RELATIVE]);
  },
};

const SEASON_START: Record<string, number> = { spring: 3, summer: 6, autumn: 9, fall: 9, winter: 12 };

const SEASON_PATTERN =
  /(?<![\w-])(?:(this\s+past|this\s+coming|this|last|next|past|coming)\s+)?(spring|summer|autumn|fall|winter)(?:\s+(?:of\s+)?((?:1[89]|20)\d{2}))?(?![\w-])/i;

function monthIndex(year: number, month: number): number {
  return year * 12 + month - 1;
}

/**
 * Meteorological seasons of the northern hemisphere, three whole months each; a winter belongs to the year it
 * starts in (winter 2022 = 2022-12/2023-02). Needs a modifier or a year: a bare "summer" is usually generic.
 * "this" is the season the reference falls in or, failing that, the one of the reference's year; "last" the latest
 * one already over; "next" the first one to start after the reference, skipping "this" one; "coming" the first
 * one to start after the reference.
 */
export const seasonParser: Parser = {
  pattern: () => SEASON_PATTERN,
  extract(context, match) {
    const word = match[1]?.toLowerCase().replace(/\s+/g, ' ');
    const startMonth = SEASON_START[(match[2] ?? '').toLowerCase()];
    const explicitYear = match[3] === undefined ? undefined : Number(match[3]);
    if (startMonth === undefined || (word === undefined && explicitYear === undefined)) return null;
    const today = referenceDate(context);
    const now = monthIndex(today.year, today.month);
    const startOf = (year: number) => monthIndex(year, startMonth);
    let year: number;
    if (explicitYear !== undefined) {
      year = explicitYear;
    } else {
      const containing = [today.year - 1, today.year].find((y) => startOf(y) <= now && now <= startOf(y) + 2);
      const thisYear = containing ?? today.year;
      if (word === 'this') year = thisYear;
      else if (word === 'last' || word === 'past' || word === 'this past') {
        year = today.year;
        while (startOf(year) + 2 >= now) year--;
      } else {
        year = today.year - 1;
        while (startOf(year) <= now) year++;
        if (word === 'next' && year === thisYear) year++;
      }
    }
    const from = { year, month: startMonth, day: 1 };
    const to = addMonths(from, 2);
    return result(context, match.index ?? 0, match[0], { year, month: startMonth }, { year: to.year, month: to.month },
      explicitYear === undefined ? [TAG_RELATIVE] : []);
  },
};

const YEAR = '((?:1[89]|20)\\d{2})';
const YEAR_END = '(?![\\w\\-/:]|[.,]\\d)';
const YEAR_RANGE_PATTERN = new RegExp(
  `(?<![\\w-])(?:from|between)\\s+${YEAR}\\s*(?:to|and|until|till|through|-|–)\\s*${YEAR}${YEAR_END}`, 'i');
const YEAR_PATTERN = new RegExp(
  `(?<![\\w-])(?:in|since|during|from|until|till|by|before|after|of|back\\s+in|the\\s+year|around)\\s+${YEAR}${YEAR_END}`,
  'i');

/**
 * Bare years ("in 2019", "since 2020", "from 2019 to 2021"), which chrono skips. Only after a preposition, since
 * a lone four-digit number is more often a count or a code. The preposition stays outside the mention.
 */
export const yearParser: Parser = {
  pattern: () => YEAR_PATTERN,
  extract(context, match) {
    const year = Number(match[1]);
    return result(context, match.index ?? 0, match[0], { year }, null, [TAG_PREPOSITION_YEAR]);
  },
};

export const yearRangeParser: Parser = {
  pattern: () => YEAR_RANGE_PATTERN,
  extract(context, match) {
    const first = match[1] ?? '';
    const last = match[2] ?? '';
    const index = (match.index ?? 0) + match[0].indexOf(first);
    const text = match[0].slice(match[0].indexOf(first));
    if (Number(last) < Number(first)) return null;
    return result(context, index, text, { year: Number(first) }, { year: Number(last) }, []);
  },
};

/** Placed before chrono's own parsers so that, on a tie in length, these win the overlap removal. */
export const customParsers: Parser[] = [
  yearRangeParser, rollingWindowParser, weekParser, weekendParser, lastNightParser, seasonParser, yearParser,
];
