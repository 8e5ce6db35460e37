import { expect } from 'chai';
import { partitionFor, userKey } from '@memory/contracts';
import { summarizeLatencies } from '@memory/evaluation';
import { otherPartitionUser, samePartitionUser } from '@memory/testing';
import type { Freshness } from './load-commands.js';
import { overloadLimits, overloadVerdicts, type OverloadFigures } from './perf-overload.js';

const fresh = (ms: number[], over: Partial<Freshness> = {}): Freshness => ({ ratePerS: 1, sent: ms.length, accepted: ms.length, refused: {}, neverFound: 0, latency: summarizeLatencies(ms), ...over });

describe('the overload scenario', () => {
  it('gives a tenant half the sustainable rate, in flight what that rate holds while passing the pipeline and a tenth of a second of work, the pipeline a second of backlog', () => {
    // 75.85/s x 0.04 s = 3.03, + 15.17 queued.
    expect(overloadLimits(151.7, 40)).to.deep.equal({ MEMORY_TENANT_RATE_PER_S: '75', MEMORY_TENANT_BURST: '75', MEMORY_TENANT_MAX_IN_FLIGHT: '19', MEMORY_MAX_BACKLOG_RECORDS: '152' });
    // A pipeline whose memories take longer to pass (Kafka hops, refreshes) holds more of them at the same rate: 28.8/s x 0.25 s = 7.2, + 5.76.
    expect(overloadLimits(57.6, 250)).to.deep.equal({ MEMORY_TENANT_RATE_PER_S: '28', MEMORY_TENANT_BURST: '28', MEMORY_TENANT_MAX_IN_FLIGHT: '13', MEMORY_MAX_BACKLOG_RECORDS: '58' });
    // A machine slower than two memories a second still admits one at a time.
    expect(overloadLimits(0.5, 0)).to.deep.equal({ MEMORY_TENANT_RATE_PER_S: '1', MEMORY_TENANT_BURST: '1', MEMORY_TENANT_MAX_IN_FLIGHT: '1', MEMORY_MAX_BACKLOG_RECORDS: '1' });
  });

  const figures = (over: Partial<OverloadFigures> = {}): OverloadFigures => ({
    sustainablePerS: 100,
    limits: overloadLimits(100, 50),
    seconds: 60,
    quietPartition: 'shared',
    loud: fresh([300, 600, 900, 1_200], { sent: 30_000, accepted: 4, refused: { 429: 29_996 } }),
    warmUp: fresh([300, 200, 150]),
    quietAlone: fresh([100, 120, 140]),
    quietLoaded: fresh([110, 150, 200]),
    rss: { beforeMb: 400, peakMb: 520, firstHalfPeakMb: 500, secondHalfPeakMb: 620, samplesMb: [450, 500, 510, 620] },
    heap: { before: { mb: 90, fullCollections: 2 }, after: { mb: 97, fullCollections: 3 } },
    heapPerMemoryMb: 0.01,
    ...over,
  });
  const passes = (over: Partial<OverloadFigures>) => overloadVerdicts(figures(over)).map((verdict) => verdict.pass);

  it('passes when the accepted are fresh within 2 s, the other tenant within 1.5 times its figure alone, and the live heap grew by what was accepted', () => {
    expect(passes({})).to.deep.equal([true, true, true]);
  });

  it('fails each check on its own figure', () => {
    expect(passes({ loud: fresh([300, 2_500]) })).to.deep.equal([false, true, true]);
    expect(passes({ loud: fresh([300], { neverFound: 1 }) })).to.deep.equal([false, true, true]);
    expect(passes({ quietLoaded: fresh([150, 250, 400]) })).to.deep.equal([true, false, true]);
    expect(passes({ quietLoaded: fresh([110], { sent: 2, accepted: 1, refused: { 429: 1 } }) })).to.deep.equal([true, false, true]);
    // 10 accepted memories at 10 KB and 24 MB of warm-up allow 24.1 MB: 40 MB more is what the refused left behind.
    expect(passes({ heap: { before: { mb: 90, fullCollections: 2 }, after: { mb: 130, fullCollections: 3 } } })).to.deep.equal([true, true, false]);
  });

  it('lets the live heap grow by what the accepted memories take and a warm-up, and fails when it could not be read', () => {
    const accepted = fresh([300], { sent: 30_000, accepted: 1_000 });
    const grown = { before: { mb: 90, fullCollections: 2 }, after: { mb: 120, fullCollections: 3 } };
    expect(passes({ loud: accepted, heap: grown })).to.deep.equal([true, true, true]);
    expect(passes({ loud: accepted, heap: grown, heapPerMemoryMb: null })).to.deep.equal([true, true, false]);
    // A large heap's warm-up is a tenth of it.
    expect(passes({ heap: { before: { mb: 400, fullCollections: 2 }, after: { mb: 435, fullCollections: 3 } } })).to.deep.equal([true, true, true]);
    expect(passes({ heap: { before: { mb: 90, fullCollections: 2 }, after: null } })).to.deep.equal([true, true, false]);
    expect(passes({ heap: { before: null, after: null } })).to.deep.equal([true, true, false]);
  });

  it('puts the other tenant\'s end user on the loud one\'s partition, or on another, as asked', () => {
    const loud = { tenantId: 'acme', endUserId: 'loud-1764150000000' };
    const partitionOf = (tenantId: string, endUserId: string) => partitionFor(userKey(tenantId, endUserId), 8);
    expect(partitionOf('globex', samePartitionUser('globex', 'quiet-loaded', loud))).to.equal(partitionOf(loud.tenantId, loud.endUserId));
    expect(partitionOf('globex', otherPartitionUser('globex', 'quiet-loaded', [loud]))).to.not.equal(partitionOf(loud.tenantId, loud.endUserId));
  });
});
