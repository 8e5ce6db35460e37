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

