import { expect } from 'chai';
import { Client } from '@elastic/elasticsearch';
import { describeWithEngine, skippedForEngine, freshScope, localEngines, memoryRecord, uniqueName } from '@memory/testing';
import { dropElasticsearchStores, elasticsearchStoresOptionsFromEnv, openElasticsearchStores, type ElasticsearchStores, type ElasticsearchStoresOptions } from './index.js';
import { searchInTimeRange } from './in-time-range.js';

const DIMS = 4;
const DAY = 86_400_000;
const { node } = elasticsearchStoresOptionsFromEnv();

/** Deterministic pseudo-random numbers in [0, 1) (xorshift), so a failure reproduces. */
function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x100000000;
  };
}

describeWithEngine('stores-elasticsearch inTimeRange window', localEngines().elasticsearch, function () {
  this.timeout(30_000);
  const options: ElasticsearchStoresOptions = { node, prefix: uniqueName('test-time'), dims: DIMS, refreshInterval: '100ms' };
  const index = `${options.prefix}-memories`;
  const raw = new Client({ node });
  const scope = freshScope();
  let stores: ElasticsearchStores;

  before(async () => {
    stores = await openElasticsearchStores(options);
    // 150 memories over 100 days: instants, intervals of up to 5 days, and creation times only.
    const next = random(42);
    const t0 = Date.UTC(2024, 0, 1);
    const memories = Array.from({ length: 150 }, (_, i) => {
      const start = t0 + Math.floor(next() * 100 * DAY);
      const kind = i % 3;
      const eventTimes =
        kind === 2 ? [] : [{ text: 't', index: 0, start, end: kind === 0 ? start : start + Math.floor(next() * 5 * DAY), iso: '', relative: false }];
      return memoryRecord(scope, `m${String(i).padStart(3, '0')}`, DIMS, { eventTimes, createdAt: kind === 2 ? start : t0 - DAY });
    });
    await stores.vectors.upsert(memories);
  });

  after(async function () {
    if (skippedForEngine(this)) return;
    await stores.close();
    await dropElasticsearchStores(options);
    await raw.close();
  });

  it('finds through a window around the middle what reading every match finds', async () => {
    const t0 = Date.UTC(2024, 0, 1);
    const ranges = [
      { from: t0, to: t0 + 100 * DAY },
      { from: t0 + 20 * DAY, to: t0 + 70 * DAY },
      { from: t0 + 33 * DAY + 123, to: t0 + 34 * DAY },
      { from: t0 - 50 * DAY, to: t0 + 10 * DAY },
    ];
    let compared = 0;
    for (const range of ranges) {
      for (const limit of [1, 4, 9]) {
        const exact = await searchInTimeRange(raw, index, scope, range, limit, undefined, Infinity);
        const windowed = await searchInTimeRange(raw, index, scope, range, limit, undefined, 1);
        expect(windowed, `${JSON.stringify(range)} limit ${limit}`).to.deep.equal(exact);
        compared += exact.length;
      }
    }
    expect(compared).to.be.greaterThan(30);
    expect(await stores.vectors.inTimeRange(scope, ranges[0]!, 5)).to.deep.equal(await searchInTimeRange(raw, index, scope, ranges[0]!, 5, undefined, Infinity));
  });

  for (const [spacing, what] of [
    [1_000, '400 memories created within 400 seconds'],
    [1, '400 memories created within 400 milliseconds'],
  ] as const)
  it(`reads part of a burst far from the middle, and finds what reading every match finds (${what})`, async () => {
    // The burst an hour after the middle of a six-hour range ("this morning").
    const burst = freshScope();
    const from = Date.UTC(2024, 5, 1, 6);
    const memories = Array.from({ length: 400 }, (_, i) => memoryRecord(burst, `b${String(i).padStart(3, '0')}`, DIMS, { eventTimes: [], createdAt: from + 4 * 3_600_000 + i * spacing }));
    await stores.vectors.upsert(memories);
    const range = { from, to: from + 6 * 3_600_000 };
    let documentsRead = 0;
    const counting = new Proxy(raw, {
      get: (target, name) =>
        name === 'search'
          ? async (request: { size?: number }) => {
              const response = await target.search(request as never);
              documentsRead += response.hits.hits.length;
              return response;
            }
          : Reflect.get(target, name),
    });
    for (const limit of [1, 10, 40]) {
      documentsRead = 0;
      const windowed = await searchInTimeRange(counting, index, burst, range, limit, undefined, 1);
      expect(windowed).to.deep.equal(await searchInTimeRange(raw, index, burst, range, limit, undefined, Infinity));
      expect(windowed.map((hit) => hit.id)).to.deep.equal(Array.from({ length: limit }, (_, i) => `b${String(i).padStart(3, '0')}`));
      expect(documentsRead, `limit ${limit}`).to.be.at.most(4 * limit);
    }
  });
});
