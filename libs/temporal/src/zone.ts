import { MemoryServiceError } from '@memory/platform';
import type { CivilDate, WallTime } from './calendar.js';
import { formatClock, formatDate, formatOffset, midnight, wallAsUtc, wallFromUtcMs } from './calendar.js';

/**
 * IANA time-zone arithmetic on top of Intl (the only zone database Node ships). Offsets are always read for the
 * instant in question, so a zone's daylight-saving changes are honoured wherever a date lands.
 */

export const DEFAULT_TIME_ZONE = 'UTC';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', era: 'short',
      year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

export function isValidTimeZone(zone: string): boolean {
  return canonicalZone(zone) !== null;
}

/** Valid zones only (a few hundred exist), so requests naming made-up zones cannot grow it. */
const canonicalZones = new Map<string, string>();

/** The zone's canonical IANA name, or null when Intl does not know it; constructing a formatter costs ~0.3 ms. */
function canonicalZone(zone: string): string | null {
  const cached = canonicalZones.get(zone);
  if (cached !== undefined) return cached;
  try {
    const canonical = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
    canonicalZones.set(zone, canonical);
    return canonical;
  } catch {
    return null;
  }
}

/** The canonical IANA name for a zone; null, undefined and blank mean UTC. Unknown zones are rejected. */
export function normaliseTimeZone(zone: string | null | undefined): string {
  if (zone === null || zone === undefined || zone.trim() === '') return DEFAULT_TIME_ZONE;
  const canonical = canonicalZone(zone.trim());
  if (canonical === null) {
    throw new MemoryServiceError('TEMPORAL.INVALID_TIME_ZONE', `Unknown IANA time zone: ${zone}`, { details: { timeZone: zone } });
  }
  return canonical;
}

function isUtc(zone: string): boolean {
  return zone === 'UTC' || zone === 'Etc/UTC';
}

/** The wall clock in the zone at an instant. */
export function wallAt(epochMs: number, zone: string): WallTime {
  if (isUtc(zone)) return wallFromUtcMs(epochMs);
  const fields: Record<string, number> = {};
  let bce = false;
  for (const part of formatterFor(zone).formatToParts(new Date(epochMs))) {
    if (part.type === 'era') bce = part.value === 'BC' || part.value === 'B';
    else if (part.type !== 'literal') fields[part.type] = Number(part.value);
  }
  const year = fields.year ?? 1970;
  return {
    year: bce ? 1 - year : year,
    month: fields.month ?? 1, day: fields.day ?? 1,
    hour: fields.hour ?? 0, minute: fields.minute ?? 0, second: fields.second ?? 0,
    millisecond: ((epochMs % 1000) + 1000) % 1000,
  };
}

/** Minutes east of UTC in force in the zone at an instant (e.g. 120 for Berlin in summer). */
export function offsetMinutesAt(epochMs: number, zone: string): number {
  if (isUtc(zone)) return 0;
  return Math.round((wallAsUtc(wallAt(epochMs, zone)) - epochMs) / 60_000);
}

const DAY_MS = 86_400_000;

/**
 * The instant a wall-clock reading denotes in the zone. A reading that happens twice (clocks going back) is the
 * earlier instant; one that never happens (clocks going forward) is pushed forward by the gap, 02:30 becoming
 * 03:30 - the same choices as Temporal's "compatible" disambiguation.
 */
export function wallToEpoch(wall: WallTime, zone: string): number {
  const local = wallAsUtc(wall);
  if (isUtc(zone)) return local;
  const before = offsetMinutesAt(local - DAY_MS, zone);
  const after = offsetMinutesAt(local + DAY_MS, zone);
  const candidates = [before, after]
    .map((offset) => local - offset * 60_000)
    .filter((epoch) => wallAsUtc(wallAt(epoch, zone)) === local);
  if (candidates.length > 0) return Math.min(...candidates);
  return local - before * 60_000;
}

export function startOfDay(date: CivilDate, zone: string): number {
  return wallToEpoch(midnight(date), zone);
}

/** Full ISO 8601 timestamp in the zone's offset at that instant, `Z` when the offset is zero. */
export function formatInstant(epochMs: number, zone: string): string {
  const wall = wallAt(epochMs, zone);
  return `${formatDate(wall)}T${formatClock(wall)}${formatOffset(offsetMinutesAt(epochMs, zone))}`;
}
