import { expect } from 'chai';
import { formatComparisonTable, formatPerformanceTable, summarizeLatencies } from './index.js';

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

describe('comparison table', () => {
  it('pairs the n-th row of each metric, with each figure (p50 for latencies), each p95 and the second over the first', () => {
    const text = formatComparisonTable(
      ['embedded', 'distrib'],
      [
        { metric: 'pipeline_per_s', condition: '3000 memories', value: 100, unit: 'mem/s' },
        { metric: 'search_ms', condition: '1k memories, 1 client', value: 2, unit: 'ms', latency: summarizeLatencies([10, 20]) },
        { metric: 'freshness_ms', condition: '13 mem/s', value: 2, unit: 'ms', latency: summarizeLatencies([30, 50]) },
        { metric: 'embed_raw_per_s', condition: '', value: 105, unit: 'texts/s' },
        { metric: 'edge_accept_rps', condition: 'c=64', value: 3000, unit: 'req/s', latency: summarizeLatencies([60, 90]) },
      ],
      [
        { metric: 'search_ms', condition: '1k memories, 1 client', value: 2, unit: 'ms', latency: summarizeLatencies([100, 200]) },
        { metric: 'pipeline_per_s', condition: '3000 memories', value: 25, unit: 'mem/s' },
        { metric: 'freshness_ms', condition: '3 mem/s', value: 2, unit: 'ms', latency: summarizeLatencies([300, 500]) },
        { metric: 'rss_mb', condition: 'service processes', value: 1900, unit: 'MB' },
        { metric: 'edge_accept_rps', condition: 'c=64', value: 600, unit: 'req/s', latency: summarizeLatencies([300, 600]) },
      ],
    );
    const lines = text.split('\n');
    expect(lines[0]).to.match(/^metric\s+condition\s+embedded\s+distrib\s+ratio\s+p95 embedded\s+p95 distrib\s+p95 ratio$/);
    expect(lines[2]!.split(/\s+/)).to.deep.equal(['pipeline_per_s', '3000', 'memories', '100', '25.0', '0.25', '-', '-', '-']);
    expect(lines[3]!.split(/\s+/)).to.deep.equal(['search_ms', '1k', 'memories,', '1', 'client', '10.0', '100', '10.0', '20.0', '200', '10.0']);
    expect(lines[4]!.split(/\s+/)).to.deep.equal(['freshness_ms', '13', 'mem/s', '|', '3', 'mem/s', '30.0', '300', '10.0', '50.0', '500', '10.0']);
    expect(lines[5]!.split(/\s+/)).to.deep.equal(['embed_raw_per_s', '105', '-', '-', '-', '-', '-']);
    expect(lines[6]!.split(/\s+/)).to.deep.equal(['edge_accept_rps', 'c=64', '3000', '600', '0.20', '90.0', '600', '6.67']);
    expect(lines[7]!.split(/\s+/)).to.deep.equal(['rss_mb', 'service', 'processes', '-', '1900', '-', '-', '-', '-']);
  });
});
