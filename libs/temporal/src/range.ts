import { addYearsToInstant } from './calendar.js';
import type { FoundReference, TemporalOptions } from './find.js';
import { checkOptions, findReferences } from './find.js';
import { resolvedSpan, shiftResolvedYears } from './periods.js';

export interface TimeRange {
  /** Epoch ms, inclusive. */
  from: number;
  /** Epoch ms, exclusive. */
  to: number;
  /** The words of the query that named the range, from the first time reference to the end of the last. */
  text: string;
  /**
   * Every reference lacked a year and words tying it to now ("in June", "on Aug 15th"): the year is a guess, the
   * latest one whose date has begun. A caller with the user's memories may know better (see settleImpliedYear).
   */
  yearImplied: boolean;
}

/** Words that make a question look forward ("what will I do in May", "plans for December"). */
const FUTURE_WORDS = /\b(?:will|shall|going to|gonna|plan|plans|planned|planning|upcoming|coming|next|soon|tomorrow|scheduled?)\b|'ll\b/i;

/**
 * The period a search query's time expressions cover, for the temporal_range strategy: the smallest single span
 * holding every reference in the query ("in May or July 2023" covers May to July). Null when the query names no
 * time. Memories match when their own mentions overlap [from, to).
 */
export function parseTimeRange(query: string, options: TemporalOptions): TimeRange | null {
  const { referenceTime, zone } = checkOptions(options);
  const references = queryReferences(query, referenceTime, zone);
  const first = references[0];
  if (!first) return null;
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  let textEnd = 0;
  for (const reference of references) {
    const span = resolvedSpan(reference.resolved, zone);
    from = Math.min(from, span.start);
    to = Math.max(to, span.end);
    textEnd = Math.max(textEnd, reference.index + reference.text.length);
  }
  return { from, to, text: query.slice(first.index, textEnd), yearImplied: references.every((r) => r.yearImplied) };
}

/** The same range `years` later (earlier when negative), on the UTC calendar. */
export function shiftRangeYears(range: TimeRange, years: number): TimeRange {
  return years === 0 ? range : { ...range, from: addYearsToInstant(range.from, years), to: addYearsToInstant(range.to, years) };
}

function queryReferences(query: string, referenceTime: number, zone: string): FoundReference[] {
  const found = findReferences(query, referenceTime, zone);
  const written = found.find((reference) => !reference.relative);
  if (written) {
    if (found.every((reference) => !reference.relative)) return found;
    // "last weekend before April 10, 2023", "the Sunday before October 25, 2022", "in May or July 2022": words
    // relative to a date the query writes out are relative to that date, not to now.
    return findReferences(query, resolvedSpan(written.resolved, zone).start, zone);
  }
  if (FUTURE_WORDS.test(query)) return found;
  // A search looks back: "in May" asked in November is the May that has been, not the one to come.
  return found.map((reference) =>
    reference.yearImplied && resolvedSpan(reference.resolved, zone).start > referenceTime ? { ...reference, resolved: shiftResolvedYears(reference.resolved, -1) } : reference,
  );
}
