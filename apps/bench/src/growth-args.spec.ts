import { expect } from 'chai';
import { UsageError } from './args.js';
import { parseGrowthArgs } from './growth-args.js';

describe('search growth benchmark arguments', () => {
  it('defaults to 100k memories in steps of 10k, 200 queries, nothing kept', () => {
    expect(parseGrowthArgs([])).to.deep.equal({ memories: 100_000, step: 10_000, queries: 200, keep: null, json: null });
  });
  it('takes the sizes, a folder to keep and a JSON file', () => {
    expect(parseGrowthArgs(['--memories', '5000', '--step', '1000', '--queries', '50', '--keep', '/tmp/g', '--json', 'out.json'])).to.deep.equal({
      memories: 5000,
      step: 1000,
      queries: 50,
      keep: '/tmp/g',
      json: 'out.json',
    });
    expect(parseGrowthArgs(['--help'])).to.equal(null);
  });
  it('refuses unknown flags, missing values and sizes that are not whole positive numbers', () => {
    expect(() => parseGrowthArgs(['--scale', 'full'])).to.throw(UsageError, /unknown option --scale/);
    expect(() => parseGrowthArgs(['--memories'])).to.throw(UsageError, /needs a value/);
    expect(() => parseGrowthArgs(['--step', '0'])).to.throw(UsageError, /whole number >= 1/);
    expect(() => parseGrowthArgs(['--queries', '2.5'])).to.throw(UsageError, /whole number >= 1/);
  });
});
