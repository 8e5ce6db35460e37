import type { Scope, VectorStore } from '@memory/ports';
import { shiftRangeYears, type TimeRange } from '@memory/temporal';

/** How many years before the guessed one a year-less date is looked for among the user's memories. */
export const IMPLIED_YEAR_LOOKBACK = 10;

/**
 * "When did I go camping in June?" names no year, and the date parser takes the latest June that has begun. When
 * the user has no memory in that June, the June they mean is the latest one they have memories of: the years
 * before are tried (counted at once), up to IMPLIED_YEAR_LOOKBACK, and the range stays as it was when none has any.
 */
export async function settleImpliedYear(vectors: VectorStore, scope: Scope, range: TimeRange): Promise<TimeRange> {
  if (!range.yearImplied) return range;
  const candidates = Array.from({ length: IMPLIED_YEAR_LOOKBACK + 1 }, (_, back) => shiftRangeYears(range, -back));
  const counts = await vectors.countInTimeRanges(scope, candidates);
  return candidates[counts.findIndex((count) => count > 0)] ?? range;
}

