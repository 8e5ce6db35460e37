import type { ParsingComponents, ParsingResult } from 'chrono-node';
import type { WallTime } from './calendar.js';
import { wallAsUtc } from './calendar.js';
import { TAG_RELATIVE, TAG_WEEK } from './chrono/tags.js';
import type { DayPart, Period, Resolved } from './periods.js';
import { wallToEpoch } from './zone.js';

/** How one chrono result reads: what it denotes, and whether the words needed the reference time to mean it. */
export interface Interpretation {
  readonly resolved: Resolved;
  readonly relative: boolean;
  /**
   * No year was written and no word ties the time to the reference ("June", "Aug 15th", not "last June"): the year
   * is the reference's guess.
   */
  readonly yearImplied: boolean;
}

function value(components: ParsingComponents, key: Parameters<ParsingComponents['get']>[0], fallback: number): number {
  return components.get(key) ?? fallback;
}

function dayPart(text: string): DayPart | undefined {
  if (/\b(?:tonight|night)\b/i.test(text)) return 'night';
  if (/\bevening\b/i.test(text)) return 'evening';
  if (/\bafternoon\b/i.test(text)) return 'afternoon';
  if (/\bmorning\b/i.test(text)) return 'morning';
  return undefined;
}

/**
 * The granularity is the finest component the words fixed: a clock time, else a day (a weekday fixes one), else a
 * month, else a year. chrono's components are wall-clock values in the user's zone, so instants are converted with
 * the zone's offset on THAT date (DST), except where chrono fixed the offset itself: a zone written in the text
 * ("5pm EST") or an amount of time from the reference ("in 2 hours"), which is elapsed time.
 */
function toPeriod(components: ParsingComponents, text: string, tags: ReadonlySet<string>, zone: string): Period | null {
  const year = value(components, 'year', 1970);
  const month = value(components, 'month', 1);
  const day = value(components, 'day', 1);
  if (components.isCertain('hour') || tags.has('result/relativeDateAndTime')) {
    const wall: WallTime = {
      year, month, day,
      hour: value(components, 'hour', 0), minute: value(components, 'minute', 0),
      second: value(components, 'second', 0), millisecond: value(components, 'millisecond', 0),
    };
    const offset = components.isCertain('timezoneOffset') ? components.get('timezoneOffset') : null;
    const epoch = offset === null ? wallToEpoch(wall, zone) : wallAsUtc(wall) - offset * 60_000;
    return { kind: 'instant', epoch };
  }
  const part = dayPart(text);
  if (components.isCertain('day') || components.isCertain('weekday')) {
    return part ? { kind: 'day', date: { year, month, day }, part } : { kind: 'day', date: { year, month, day } };
  }
  if (components.isCertain('month')) return { kind: 'month', year, month };
  if (components.isCertain('year')) return { kind: 'year', year };
  // Only "this morning" and the like get here (the false-positive filter drops the rest).
  if (part) return { kind: 'day', date: { year, month, day }, part };
  return null;
}

const DEICTIC_WORDS = /\b(?:today|tonight|tomorrow|yesterday|now|ago|this|last|next|past|previous|coming|later|earlier|within)\b/i;

/** The words are relative to the reference time: chrono or our parsers said so, or a deictic word is there ("this year"). */
function hasRelativeWording(result: ParsingResult): boolean {
  const tags = result.tags();
  if (tags.has(TAG_RELATIVE)) return true;
  for (const tag of tags) if (tag.startsWith('casualReference/') || tag.startsWith('result/relativeDate')) return true;
  return DEICTIC_WORDS.test(result.text);
}

function hasWrittenYear(result: ParsingResult): boolean {
  return result.start.isCertain('year') || (result.end?.isCertain('year') ?? false);
}

export function interpret(result: ParsingResult, zone: string): Interpretation | null {
  const tags = result.tags();
  // A part of a day can only be attributed to a side when there is one side ("Friday night").
  const partText = result.end ? '' : result.text;
  const from = toPeriod(result.start, partText, tags, zone);
  if (!from) return null;
  let resolved: Resolved;
  if (tags.has(TAG_WEEK) && from.kind === 'day') {
    resolved = { kind: 'single', period: { kind: 'week', monday: from.date } };
  } else {
    const to = result.end ? toPeriod(result.end, partText, tags, zone) : null;
    resolved = to ? { kind: 'range', from, to } : { kind: 'single', period: from };
  }
  // Relative means the words needed the reference time: relative wording, or no year written (a bare "May 8" takes
  // its year from the reference).
  const relativeWording = hasRelativeWording(result);
  const writtenYear = hasWrittenYear(result);
  return { resolved, relative: relativeWording || !writtenYear, yearImplied: !relativeWording && !writtenYear };
}
