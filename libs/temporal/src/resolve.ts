import type { TemporalOptions } from './find.js';
import { checkOptions, findReferences } from './find.js';
import { resolvedIso, resolvedSpan } from './periods.js';

/**
 * One resolved time reference. Structurally the TimeMention record of schemas/resolved/v1.avsc (memory.resolved
 * eventTimes), declared here so this library does not depend on the contracts.
 */
export interface TimeMention {
  /** The words as written, e.g. "next Friday". */
  text: string;
  /** Character offset of the words in the original text. */
  index: number;
  /** Epoch ms of the start of the period the words refer to. */
  start: number;
  /** Epoch ms of the end of that period, exclusive. */
  end: number;
  /** The ISO 8601 text that replaced the words in the resolved text. */
  iso: string;
  /** True when the words needed the reference time to mean anything ("yesterday", "in 3 days"). */
  relative: boolean;
}

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
