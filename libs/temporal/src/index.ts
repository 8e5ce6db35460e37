export { resolveTimeReferences } from './resolve.js';
export type { ResolvedTimeReferences, TimeMention } from './resolve.js';
export { parseTimeRange, shiftRangeYears } from './range.js';
export type { TimeRange } from './range.js';
export type { TemporalOptions } from './find.js';
export { isValidTimeZone, normaliseTimeZone, offsetMinutesAt } from './zone.js';
