import type { TimeMention } from '@memory/contracts';
import type { TemporalOptions } from './find.js';
import { checkOptions, findReferences } from './find.js';
import { resolvedIso, resolvedSpan } from './periods.js';

/** One resolved time reference: the TimeMention record of the Avro contracts (memory.resolved eventTimes). */
export type { TimeMention };

export interface ResolvedTimeReferences {
  resolvedText: string;
  mentions: TimeMention[];
}

/**
 * Replaces each time reference in the text by its ISO 8601 value (nothing added, nothing else changed) and
 * returns the mentions with the period each covers. A pure function of its arguments: the same text, reference
 * time and zone always give the same result, which is what makes replays deterministic.
 */
export function resolveTimeReferences(text: string, options: TemporalOptions): ResolvedTimeReferences {
  const { referenceTime, zone } = checkOptions(options);
  const mentions: TimeMention[] = [];
  let resolvedText = '';
  let cursor = 0;
  for (const reference of findReferences(text, referenceTime, zone)) {
    const iso = resolvedIso(reference.resolved, zone);
    const { start, end } = resolvedSpan(reference.resolved, zone);
    resolvedText += text.slice(cursor, reference.index) + iso;
    cursor = reference.index + reference.text.length;
    mentions.push({ text: reference.text, index: reference.index, start, end, iso, relative: reference.relative });
  }
  resolvedText += text.slice(cursor);
  return { resolvedText, mentions };
}
