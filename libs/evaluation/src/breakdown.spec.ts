import { expect } from 'chai';
import { formatBreakdownTable, ingestSample, searchSample, summariseBreakdown } from './breakdown.js';

describe('breakdown', () => {
  it('takes medians per step over samples, in first-seen order, counting only the samples a step ran in', () => {
    const steps = summariseBreakdown([
      [
        { step: 'embed', count: 1, ms: 10 },
        { step: 'elasticsearch', count: 9, ms: 100 },
      ],
      [
        { step: 'embed', count: 1, ms: 30 },
        { step: 'elasticsearch', count: 8, ms: 60 },
        { step: 'graph', count: 2, ms: 4 },
      ],
      [
        { step: 'embed', count: 1, ms: 20 },
        { step: 'elasticsearch', count: 8, ms: 80 },
      ],
    ]);
    expect(steps).to.deep.equal([
      { step: 'embed', samples: 3, count: 1, p50: 20, p95: 30 },
      { step: 'elasticsearch', samples: 3, count: 8, p50: 80, p95: 100 },
      { step: 'graph', samples: 1, count: 2, p50: 4, p95: 4 },
    ]);
  });

  it("derives a search's two hops from the nested wall times: client, edge relay, search app", () => {
    const sample = searchSample(50, [
      { step: 'vectors.knn', count: 2, ms: 20 },
      { step: 'search', count: 1, ms: 40 },
      { step: 'edge.relay', count: 1, ms: 46 },
    ]);
    expect(sample.find((s) => s.step === 'client')?.ms).to.equal(50);
    expect(sample.find((s) => s.step === 'hop.edge-to-search')?.ms).to.equal(6);
    expect(sample.find((s) => s.step === 'hop.client-to-edge')?.ms).to.equal(4);
    // Asked of the search app directly there is no relay, so no hop is made up.
    expect(searchSample(45, [{ step: 'search', count: 1, ms: 40 }]).map((s) => s.step)).to.deep.equal(['client', 'search']);
  });

  it('turns the moments a memory passed into steps between them, skipping a moment not seen', () => {
    expect(
      ingestSample([
        { step: 'edge', at: 1000 },
        { step: 'stage.a', at: 1030 },
        { step: 'stage.b', at: null },
        { step: 'stage.c', at: 1100 },
      ]),
    ).to.deep.equal([
      { step: 'stage.a', count: 1, ms: 30 },
      { step: 'stage.c', count: 1, ms: 70 },
    ]);
  });

  it('prints one fixed-width line per step', () => {
    const table = formatBreakdownTable('one search', [{ step: 'elasticsearch', samples: 3, count: 8, p50: 80, p95: 123.4 }], 3);
    expect(table.split('\n')).to.deep.equal([
      'one search',
      'step                          count    p50 ms    p95 ms  samples',
      'elasticsearch                     8      80.0       123      3/3',
    ]);
  });
});
