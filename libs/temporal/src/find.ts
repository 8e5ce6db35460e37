import { MemoryServiceError } from '@memory/platform';
import { parseReferences } from './chrono/engine.js';
import { TAG_PREPOSITION_YEAR } from './chrono/tags.js';
import type { Interpretation } from './interpret.js';
import { interpret } from './interpret.js';
import { normaliseTimeZone } from './zone.js';

/** Options shared by every entry point. */
export interface TemporalOptions {
  /** The instant relative words are resolved against, ms since the epoch. Never the wall clock. */
  readonly referenceTime: number;
  /** IANA zone the user lives in; null, undefined or blank mean UTC. */
  readonly timeZone?: string | null;
}

/** A time reference as written (index and text refer to the original text) and what it resolved to. */
export interface FoundReference extends Interpretation {
  readonly index: number;
  readonly text: string;
}

// Punctuation chrono takes in, and prepositions that add nothing once the words become a date: "on Monday" ->
// "on 2023-05-08". "in" is kept inside the mention: "in 3 days" means forward.
const LEADING = /^(?:[,(（]\s*)?(?:(?:on|at|over|during)\s+)?/i;
// A trailing dot is an abbreviation's ("Sat.") or the sentence's; either way it belongs to the text.
const TRAILING = /[\s,.)）]+$/;

const YEAR_LENGTH = 4;

function trim(index: number, text: string, tags: ReadonlySet<string>): { index: number; text: string } {
  if (tags.has(TAG_PREPOSITION_YEAR)) return { index: index + text.length - YEAR_LENGTH, text: text.slice(-YEAR_LENGTH) };
  const leading = LEADING.exec(text)?.[0].length ?? 0;
  const inner = text.slice(leading).replace(TRAILING, '');
  return inner.length === 0 ? { index, text } : { index: index + leading, text: inner };
}

export function checkOptions(options: TemporalOptions): { referenceTime: number; zone: string } {
  const { referenceTime } = options;
  if (typeof referenceTime !== 'number' || !Number.isFinite(referenceTime) || Number.isNaN(new Date(referenceTime).getTime())) {
    throw new MemoryServiceError('TEMPORAL.INVALID_REFERENCE_TIME', `referenceTime must be epoch milliseconds, got ${String(referenceTime)}`);
  }
  return { referenceTime, zone: normaliseTimeZone(options.timeZone) };
}

/** The references in the text, in order, never overlapping. */
export function findReferences(text: string, referenceTime: number, zone: string): FoundReference[] {
  const found: FoundReference[] = [];
  let cursor = 0;
  const results = parseReferences(text, referenceTime, zone).sort((a, b) => a.index - b.index);
  for (const result of results) {
    const interpretation = interpret(result, zone);
    if (!interpretation) continue;
    const { index, text: words } = trim(result.index, result.text, result.tags());
    // chrono removes overlaps itself; this only guards the replacement against one slipping through.
    if (index < cursor) continue;
    found.push({ index, text: words, ...interpretation });
    cursor = index + words.length;
  }
  return found;
}
