import type { Client, estypes } from '@elastic/elasticsearch';
import type { MemoryFilter, Scope, TimedId } from '@memory/ports';
import { call } from './errors.js';
import { distanceFromMiddle, nearestFirst, rangeMiddle, type TimedSource, type TimeRange } from '@memory/ports';
import { inRangeQuery, timedPageRequest } from './queries.js';

const PAGE = 1_000;
/** Up to this many matches (or four times the limit) are simply all read; past it, a window around the middle. */
const READ_ALL = 1_000;

/**
 * The memories of one end user in [from, to), nearest the range's middle first (moments.ts). Elasticsearch cannot
 * sort by that distance without scripts (the node here has no painless), so it is computed on the memories read
 * back. To read few of them when the range holds many, the search starts with a window around the middle sized to
 * hold about twice `limit` (from the count, as if spread evenly) and widens it fourfold until the limit-th nearest
 * moment lies inside it: every memory outside the window is farther than its half-width, so the answer is exact.
 * Only memories passing `filter` count, in the counts as in the reads. `readAllUpTo` is how many matches are read
 * whole instead (lowered by tests to exercise the window).
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
  const total = await count(client, index, inRangeQuery(scope, range, filter));
  const bounded = Number.isFinite(range.from) && Number.isFinite(range.to);
  if (!bounded || total <= Math.max(readAllUpTo, 4 * limit)) return nearestFirst(range, await readAll(client, index, inRangeQuery(scope, range, filter)), limit);

  const middle = rangeMiddle(range);
  const span = range.to - range.from;
  let half = Math.max(1, (span / 2) * Math.min(1, (2 * limit) / total));
  for (;;) {
    // One millisecond of slack each side: a memory whose moment is exactly half away still meets the window.
    const window = { from: Math.max(range.from, Math.floor(middle - half - 1)), to: Math.min(range.to, Math.ceil(middle + half + 1)) };
    const whole = window.from === range.from && window.to === range.to;
    const query = inRangeQuery(scope, window, filter);
    if (!whole && (await count(client, index, query)) < limit) {
      half *= 4;
      continue;
    }
    // The window lies inside the range, so whatever meets it is in the range; moments are measured in the range.
    const nearest = nearestFirst(range, await readAll(client, index, query), limit);
    const last = nearest[nearest.length - 1];
    if (whole || (nearest.length === limit && last !== undefined && distanceFromMiddle(range, last.time) <= half)) return nearest;
    half *= 4;
  }
}

async function count(client: Client, index: string, query: estypes.QueryDslQueryContainer): Promise<number> {
  const response = await call('VECTORS', `count memories in a time range in ${index}`, () => client.count({ index, query }));
  return response.count;
}

async function readAll(client: Client, index: string, query: estypes.QueryDslQueryContainer): Promise<TimedSource[]> {
  const found: TimedSource[] = [];
  let after: string | undefined;
  for (;;) {
    const request = timedPageRequest(index, query, PAGE, after);
    const response = await call('VECTORS', `read memories in a time range from ${index}`, () => client.search<TimedSource>(request));
    const page = response.hits.hits.map((hit) => hit._source!);
    found.push(...page);
    if (page.length < PAGE) return found;
    after = page[page.length - 1]!.id;
  }
}
