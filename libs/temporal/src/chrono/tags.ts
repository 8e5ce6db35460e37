/** Tags this library puts on chrono results, next to chrono's own (`casualReference/...`, `result/relativeDate`). */

/** Produced by one of our parsers; chrono's results that overlap one are dropped. */
export const TAG_CUSTOM = 'memory/custom';
/** A Monday-to-Sunday range that is one ISO week. */
export const TAG_WEEK = 'memory/week';
/** The words only mean something relative to the reference time. */
export const TAG_RELATIVE = 'memory/relative';
/**
 * A bare year whose result text starts with the preposition that introduced it ("since 2020"): chrono discards
 * all-digit results, so the preposition rides along and is cut off when the mention is made.
 */
export const TAG_PREPOSITION_YEAR = 'memory/preposition-year';
