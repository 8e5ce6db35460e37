import type { Client, estypes } from '@elastic/elasticsearch';
import type { MemoryFilter, Scope, TimedId } from '@memory/ports';
import { call } from './errors.js';
import { distanceFromMiddle, nearestFirst, rangeMiddle, type TimedSource, type TimeRange } from '@memory/ports';
import { timesFromBytes } from './memory-document.js';
import { hitBytes, hitId, inRangeQuery, timedPageRequest, timedSourcesRequest, windowCountsRequest } from './queries.js';

const PAGE = 1_000;
/** Up to this many matches (or four times the limit) are simply all read; past it, a window around the middle. */
const READ_ALL = 1_000;
/** Windows counted in one request while the window around the middle is narrowed. */
const WINDOWS_PER_COUNT = 16;
/** Each round takes the 16th root of the ratio between the two widths it narrows; a tie at the middle stops it sooner. */
const MAX_NARROWING_ROUNDS = 6;

/**
 * The memories of one end user in [from, to), nearest the range's middle first (moments.ts). Elasticsearch cannot
 * sort by that distance without scripts (the node here has no painless), so it is computed on the memories read
 * back. When the range holds many, only a window around the middle is read: the widths to try are counted first,
 * many in one request, and narrowed (each round between the widest window short of `limit` and the narrowest that
 * holds it) until the window holds at most four times `limit`; a burst of memories far from the middle is then read
 * in part, not whole. Every memory outside a window is farther than its half-width, so reading one that holds the
 * limit-th nearest moment is exact. Only memories passing `filter` count, in the counts as in the reads.
 * `readAllUpTo` is how many matches are read whole instead (lowered by tests to exercise the window).
 */
export async function searchInTimeRange(
  client: Client,
  index: string,
  scope: Scope,
  range: TimeRange,
  limit: number,
  filter?: MemoryFilter,
  readAllUpTo = READ_ALL,
): Promise<TimedId[]> {
  if (!(range.from < range.to) || limit === 0) return [];
  // Whatever meets a window inside the range is in the range; moments are measured in the range.
  const nearestIn = async (window: TimeRange) => nearestFirst(range, await readAll(client, index, scope, inRangeQuery(scope, window, filter)), limit);
  if (!(Number.isFinite(range.from) && Number.isFinite(range.to))) return nearestIn(range);

  const middle = rangeMiddle(range);
  // One millisecond of slack each side: a memory whose moment is exactly half away still meets the window.
  const windowOf = (half: number) => ({ from: Math.max(range.from, Math.floor(middle - half - 1)), to: Math.min(range.to, Math.ceil(middle + half + 1)) });
  // count(windowOf(short)) < limit <= count(windowOf(holding)) throughout.
  let short = 0;
  let holding = (range.to - range.from) / 2;
  // The range's total comes with the first round's counts, so a range past readAllUpTo costs no request of its own.
  const [total, ...firstCounts] = await countInTimeWindows(client, index, scope, [range, ...widthsBetween(1, holding).map(windowOf)], range, filter);
  if (total! <= Math.max(readAllUpTo, 4 * limit)) return nearestIn(range);

  let held = total!;
  let counted: number[] | null = firstCounts;
  for (let round = 0; round < MAX_NARROWING_ROUNDS && held > 4 * limit && holding - short > 1; round++) {
    const halves = widthsBetween(Math.max(short, 1), holding);
    const counts = counted ?? (await countInTimeWindows(client, index, scope, halves.map(windowOf), windowOf(holding), filter));
    counted = null;
    const first = counts.findIndex((count) => count >= limit);
    if (first === -1) {
      short = halves[halves.length - 1]!;
      continue;
    }
    // Memories whose moment is the middle or a few milliseconds from it (an event interval holding it: "last summer"
    // for a range of the summer) are in every window: when the narrowest holds them all, they are read whole.
    if (short === 0 && first === 0 && counts[0] === held) break;
    if (first > 0) short = halves[first - 1]!;
    holding = halves[first]!;
    held = counts[first]!;
  }
  for (let half = holding; ; ) {
    const window = windowOf(half);
    const nearest = await nearestIn(window);
    const last = nearest[nearest.length - 1];
    const whole = window.from === range.from && window.to === range.to;
    if (whole || (nearest.length === limit && last !== undefined && distanceFromMiddle(range, last.time) <= half)) return nearest;
    // Held the limit only with the slack: the window out to its last memory holds every nearer one.
    half = nearest.length === limit && last !== undefined ? distanceFromMiddle(range, last.time) : half * 4;
  }
}

/** Half-widths strictly between `from` and `to`, evenly spaced on a log scale (nothing is known of how memories spread). */
function widthsBetween(from: number, to: number): number[] {
  const ratio = to / from;
  return Array.from({ length: WINDOWS_PER_COUNT - 1 }, (_, i) => from * ratio ** ((i + 1) / WINDOWS_PER_COUNT));
}

/** How many memories each window holds (of those in `within`, when given), in one request. */
export async function countInTimeWindows(client: Client, index: string, scope: Scope, windows: readonly TimeRange[], within?: TimeRange, filter?: MemoryFilter): Promise<number[]> {
  const response = await call('VECTORS', `count memories in ${windows.length} time windows in ${index}`, () => client.search(windowCountsRequest(index, scope, windows, within, filter)));
  const buckets = (response.aggregations?.['windows'] as estypes.AggregationsFiltersAggregate).buckets as estypes.AggregationsFiltersBucket[];
  return buckets.map((bucket) => bucket.doc_count);
}

/** Every memory `query` matches, with its creation and event times (from doc values; _source for a memory an older writer left without them). */
async function readAll(client: Client, index: string, scope: Scope, query: estypes.QueryDslQueryContainer): Promise<TimedSource[]> {
  const found: TimedSource[] = [];
  let after: string | undefined;
  for (;;) {
    const request = timedPageRequest(index, query, PAGE, after);
    const hits = (await call('VECTORS', `read memories in a time range from ${index}`, () => client.search(request))).hits.hits;
    const unfilled: string[] = [];
    for (const hit of hits) {
      const bytes = hitBytes(hit, 'timesBytes');
      if (bytes === null) unfilled.push(hitId(hit));
      else found.push({ id: hitId(hit), ...timesFromBytes(bytes) });
    }
    // Written by a process of an older version since the stores last opened (the next open fills them).
    if (unfilled.length > 0) {
      const sources = await call('VECTORS', `read ${unfilled.length} memories' times from ${index}`, () => client.search<TimedSource>(timedSourcesRequest(index, scope, unfilled)));
      found.push(...sources.hits.hits.map((hit) => hit._source!));
    }
    if (hits.length < PAGE) return found;
    after = hitId(hits[hits.length - 1]!);
  }
}
