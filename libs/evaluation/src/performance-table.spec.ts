import { expect } from 'chai';
import { formatPerformanceTable, summarizeLatencies } from './index.js';

describe('latency summary', () => {
  it('gives nearest-rank percentiles and the count, nulls for an empty sample', () => {
    const ms = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(summarizeLatencies(ms)).to.deep.equal({ count: 100, p50: 50, p95: 95, p99: 99, max: 100 });
    expect(summarizeLatencies([])).to.deep.equal({ count: 0, p50: null, p95: null, p99: null, max: null });
  });
});

describe('performance table', () => {
  it('has a header, a rule, and a fixed-width row per figure, "-" where a figure is missing', () => {
    const text = formatPerformanceTable([
      { metric: 'edge_accept_rps', condition: 'c=16', value: 3456.7, unit: 'req/s', latency: summarizeLatencies([1, 2, 3, 40]) },
      { metric: 'limit_ratio', condition: '', value: 0.8123, unit: '' },
      { metric: 'rss_mb', condition: '10k memories', value: null, unit: 'MB' },
    ]);
    const lines = text.split('\n');
    expect(lines[0]).to.match(/^metric\s+condition\s+value\s+unit\s+p50 ms\s+p95 ms\s+p99 ms$/);
    expect(lines[1]).to.match(/^-+$/);
    expect(lines[2]!.split(/\s+/)).to.deep.equal(['edge_accept_rps', 'c=16', '3457', 'req/s', '2.00', '40.0', '40.0']);
    expect(lines[3]!.split(/\s+/)).to.deep.equal(['limit_ratio', '0.81', '-', '-', '-']);
    expect(lines[4]!.split(/\s+/)).to.deep.equal(['rss_mb', '10k', 'memories', '-', 'MB', '-', '-', '-']);
    // Fixed widths: the value column ends at the same place on every row.
    expect(lines[2]!.indexOf('3457') + 4).to.equal(lines[3]!.indexOf('0.81') + 4);
  });
});
