import type { ParsingResult } from 'chrono-node';
import { casual } from 'chrono-node';
import { offsetMinutesAt } from '../zone.js';
import { customParsers } from './parsers.js';
import { betweenRangeRefiner, falsePositiveFilter, preferCustomRefiner } from './refiners.js';

/** English casual chrono with our parsers first (they win ties) and our refiners around chrono's own. */
const engine = casual.clone();
engine.parsers.unshift(...customParsers);
engine.refiners.unshift(preferCustomRefiner);
engine.refiners.push(betweenRangeRefiner, falsePositiveFilter);

/**
 * Every time reference chrono finds, against the reference instant read in the zone's offset at that instant.
 * forwardDate stays off: memories mostly talk about the past, and a bare "Friday" is the nearer one either way.
 */
export function parseReferences(text: string, referenceTime: number, zone: string): ParsingResult[] {
  const reference = { instant: new Date(referenceTime), timezone: offsetMinutesAt(referenceTime, zone) };
  // chrono's public type is ParsedResult; the objects are its ParsingResult class, whose components we read.
  return engine.parse(text, reference, { forwardDate: false }) as ParsingResult[];
}
