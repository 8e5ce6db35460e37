import { expect } from 'chai';
import { UsageError } from './args.js';
import { parseBreakdownArgs } from './breakdown-args.js';

describe('bench:breakdown arguments', () => {
  it('has defaults, and reads every option', () => {
    expect(parseBreakdownArgs([])).to.deep.equal({ memories: 1000, searches: 100, ingests: 20, clients: [1, 8], loadQueries: 200, json: null });
    expect(parseBreakdownArgs(['--memories', '10000', '--searches', '50', '--ingests', '5', '--clients', '1,4', '--load-queries', '300', '--json', 'out.json'])).to.deep.equal({
      memories: 10_000,
      searches: 50,
      ingests: 5,
      clients: [1, 4],
      loadQueries: 300,
      json: 'out.json',
    });
    expect(parseBreakdownArgs(['--clients', '0'])?.clients).to.deep.equal([]);
    expect(parseBreakdownArgs(['--help'])).to.equal(null);
  });

  it('refuses unknown options and values that are not counts', () => {
    expect(() => parseBreakdownArgs(['--fast'])).to.throw(UsageError);
    expect(() => parseBreakdownArgs(['--memories', '0'])).to.throw(UsageError, 'whole number');
    expect(() => parseBreakdownArgs(['--clients', '1,x'])).to.throw(UsageError, 'commas');
    expect(() => parseBreakdownArgs(['--searches'])).to.throw(UsageError, 'needs a value');
  });
});
