import type { TemporalOptions } from './find.js';
import { checkOptions, findReferences } from './find.js';
import { resolvedSpan } from './periods.js';

export interface TimeRange {
  /** Epoch ms, inclusive. */
  from: number;
  /** Epoch ms, exclusive. */
  to: number;
  /** The words of the query that named the range, from the first time reference to the end of the last. */
  text: string;
}

/**
 * The period a search query's time expressions cover, for the temporal_range strategy: the smallest single span
 * holding every reference in the query ("in May or July 2023" covers May to July). Null when the query names no
 * time. Memories match when their own mentions overlap [from, to).
 */
export function parseTimeRange(query: string, options: TemporalOptions): TimeRange | null {
  const { referenceTime, zone } = checkOptions(options);
  const references = findReferences(query, referenceTime, zone);
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
  return { from, to, text: query.slice(first.index, textEnd) };
}
