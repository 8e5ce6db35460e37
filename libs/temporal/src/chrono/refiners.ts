import type { ParsingContext, ParsingResult, Refiner } from 'chrono-node';
import { TAG_CUSTOM } from './tags.js';

function isCustom(result: ParsingResult): boolean {
  return result.tags().has(TAG_CUSTOM);
}

function endOf(result: ParsingResult): number {
  return result.index + result.text.length;
}

/**
 * Runs before chrono's overlap removal, which keeps the longer of two overlapping results: chrono's reading of a
 * phrase one of our parsers understood better ("on this weekend" as a Saturday) must not win by a leading "on".
 */
export const preferCustomRefiner: Refiner = {
  refine(_context, results) {
    const custom = results.filter(isCustom);
    if (custom.length === 0) return results;
    return results.filter((result) =>
      isCustom(result) || !custom.some((c) => result.index < endOf(c) && c.index < endOf(result)));
  },
};

/**
 * "between March and June 2023" as one range, which chrono only builds for "to", "-", "until" and "through". As
 * chrono does for those, each side lends the other the components it lacks (here the year).
 */
export const betweenRangeRefiner: Refiner = {
  refine(context, results) {
    const merged: ParsingResult[] = [];
    for (let i = 0; i < results.length; i++) {
      const first = results[i];
      const second = results[i + 1];
      if (!first) continue;
      if (second && !first.end && !second.end
        && /^\s+and\s+$/i.test(context.text.slice(endOf(first), second.index))
        && /\bbetween\s+$/i.test(context.text.slice(0, first.index))) {
        merged.push(mergeRange(context, first, second));
        i++;
      } else {
        merged.push(first);
      }
    }
    return merged;
  },
};

function mergeRange(context: ParsingContext, first: ParsingResult, second: ParsingResult): ParsingResult {
  const from = first.start.clone();
  const to = second.start.clone();
  if (!from.isOnlyWeekdayComponent() && !to.isOnlyWeekdayComponent()) {
    for (const key of to.getCertainComponents()) if (!from.isCertain(key)) from.imply(key, to.get(key) ?? 0);
    for (const key of from.getCertainComponents()) if (!to.isCertain(key)) to.imply(key, from.get(key) ?? 0);
  }
  if (from.date() > to.date() && from.isDateWithUnknownYear()) from.imply('year', (from.get('year') ?? 0) - 1);
  const text = context.text.slice(first.index, endOf(second));
  const range = context.createParsingResult(first.index, text, from, to);
  range.addTags(first.tags());
  range.addTags(second.tags());
  return range;
}

const MONTH_CONTEXT =
  /(?:^|[^\w])(?:in|during|since|until|till|by|before|after|from|through|to|of|early|mid|late|last|this|next|between|and|or|around|throughout)\s*-?\s*$/i;
// A negated perfect earlier in the same clause.
const NEGATED_CLAUSE = /(?:\b(?:haven|hasn|hadn)['’]?t|\b(?:have|has|had)\s+(?:not|never))\b[^.!?;:,]*$/i;
const WEEKDAY_WORD = /(?<![\w])(sunday|monday|tuesday|wednesday|thursday|friday|saturday|sun|mon|tues?|wed|thu(?:rs?)?|fri|sat)(?![\w])/i;

/**
 * Drops what chrono finds but a reader would not call a time reference. Each rule is one family of false
 * positive; see README.md.
 */
export const falsePositiveFilter: Refiner = {
  refine(context, results) {
    return results.filter((result) => !isFalsePositive(context, result));
  },
};

function isFalsePositive(context: ParsingContext, result: ParsingResult): boolean {
  const text = result.text.trim();
  const start = result.start;
  if (isCustom(result)) return false;
  // "now" is the reference time itself, already on the memory; "in a second" and "in a minute" are idioms.
  if (/^(?:right\s+|just\s+)?now$/i.test(text)) return true;
  if (result.tags().has('result/relativeDateAndTime')
    && Math.abs(start.date().getTime() - context.reference.instant.getTime()) <= 60_000) return true;
  // Counted from an event the text names elsewhere, not from the reference: "two days later", "the week before",
  // "3 days after the party".
  if (/\b(?:later|earlier|before|after)$/i.test(text) || /^after\b/i.test(text)) return true;
  // Amounts of time, not points in it: "for 4 years", and "in a few days" after a negated perfect ("haven't
  // talked in a few days"; "can't come in 3 days" is still a date).
  if (/^for\b/i.test(text)) return true;
  if (/^in\b/i.test(text) && NEGATED_CLAUSE.test(context.text.slice(0, result.index))) return true;
  // "the next day we went home": the day after some event of the story.
  if (/^(?:next|following)\s+(?:day|morning|evening|night)$/i.test(text) && /\bthe\s+$/i.test(context.text.slice(0, result.index))) {
    return true;
  }
  // "the last day of school", "the last week of the trip": a part of something else, not of the calendar.
  if (/\bthe\s+$/i.test(context.text.slice(0, result.index)) && /^\s+of\b/i.test(context.text.slice(result.index + result.text.length))) {
    return true;
  }
  // chrono's reading of "weekend" is a single day; ours is the only one kept. "weekday" names no day at all.
  if (/\bweek(?:end|day)\b/i.test(text)) return true;
  // A bare number after "at" is as often a count ("4 people at 10 tables") as a time, and its am/pm is a guess.
  if (/^(?:at\s+)?\d{1,2}$/i.test(text)) return true;
  if (start.getCertainComponents().length === 0) {
    // Nothing certain: a part of a day alone ("in the morning") is habitual; "this morning" is a time reference.
    return !/^this\s+(?:morning|afternoon|evening)$/i.test(text);
  }
  if (!result.end && isOnlyMonth(result)) {
    // "April said", "I'll march on", "She is June": a lone month name counts only after a word that introduces a
    // time, and "may"/"march" only when capitalised.
    const before = context.text.slice(0, result.index);
    if (!MONTH_CONTEXT.test(before)) return true;
    if (/^(?:may|march)$/.test(text)) return true;
  }
  if (!result.end && start.isOnlyWeekdayComponent()) {
    // "I sat down", "the sun", "we wed": lower-case weekday abbreviations are other words.
    const word = WEEKDAY_WORD.exec(text)?.[1];
    if (word && !/day$/i.test(word) && word[0] === word[0]?.toLowerCase()) return true;
  }
  return false;
}

function isOnlyMonth(result: ParsingResult): boolean {
  const start = result.start;
  return start.isCertain('month') && !start.isCertain('day') && !start.isCertain('weekday') && !start.isCertain('year');
}
