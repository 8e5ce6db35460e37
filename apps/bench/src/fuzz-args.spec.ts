import { expect } from 'chai';
import { UsageError } from './args.js';
import { parseFuzzArgs } from './fuzz-args.js';

describe('npm run fuzz arguments', () => {
  it('defaults to 10,000 requests on a new seed, and reads every option', () => {
    expect(parseFuzzArgs([], () => 42)).to.deep.equal({ requests: 10_000, seed: 42, only: null, json: null, url: null, key: null, maxRssMb: 2048 });
    expect(parseFuzzArgs(['--requests', '1000', '--seed', '7', '--only', '3, 9', '--json', 'o.json', '--url', 'http://h:1/', '--key', 'k', '--max-rss', '900'], () => 42)).to.deep.equal({
      requests: 1000, seed: 7, only: [3, 9], json: 'o.json', url: 'http://h:1', key: 'k', maxRssMb: 900,
    });
    expect(parseFuzzArgs(['--help'], () => 42)).to.equal(null);
  });

  it('refuses what it cannot run', () => {
    for (const argv of [['--requests', '0'], ['--seed', 'x'], ['--url', 'http://h'], ['--only', '1'], ['--bogus', '1'], ['--json']]) {
      expect(() => parseFuzzArgs(argv, () => 1), argv.join(' ')).to.throw(UsageError);
    }
  });
});
