export interface TimeRange {
  from: number;
  to: number;
}

/**
 * Whether a memory falls in [from, to): one of its event time intervals overlaps the range or, when it has none,
 * its creation time is inside. An instant (end <= start) counts as the half-open point [start, start].
 */
export function matchesTimeRange(range: TimeRange, createdAt: number, times: Float64Array | null): boolean {
  if (times === null || times.length === 0) return createdAt >= range.from && createdAt < range.to;
  for (let i = 0; i + 1 < times.length; i += 2) {
    const start = times[i] as number;
    const end = times[i + 1] as number;
    if (end > start ? start < range.to && end > range.from : start >= range.from && start < range.to) return true;
  }
  return false;
}

/**
 * The moment of a memory in [from, to) nearest the range's middle, or null when it does not match (same rule as
 * matchesTimeRange): for an interval the point of it nearest the middle, for an instant or createdAt itself.
 */
export function momentInRange(range: TimeRange, createdAt: number, times: Float64Array | null): number | null {
  if (!matchesTimeRange(range, createdAt, times)) return null;
  if (times === null || times.length === 0) return createdAt;
  const middle = (range.from + range.to) / 2;
  let best: number | null = null;
  for (let i = 0; i + 1 < times.length; i += 2) {
    const start = times[i] as number;
    const end = times[i + 1] as number;
    const inside = end > start ? start < range.to && end > range.from : start >= range.from && start < range.to;
    if (!inside) continue;
    const moment = end > start ? Math.min(Math.max(middle, start, range.from), end, range.to) : start;
    if (best === null || Math.abs(moment - middle) < Math.abs(best - middle)) best = moment;
  }
  return best;
}
