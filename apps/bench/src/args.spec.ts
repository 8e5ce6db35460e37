import { expect } from 'chai';
import { parseBenchArgs } from './args.js';

describe('bench:locomo arguments', () => {
  it('has defaults for everything but --data', () => {
    expect(parseBenchArgs(['--data', 'eval'])).to.deep.equal({
      data: 'eval', ks: [5, 10, 20], json: null, url: null, key: null, keep: null, modes: ['embedded'], dynamicScoring: null, concurrency: 12, help: false,
    });
  });

  it('reads every option, as two words or with =', () => {
    const options = parseBenchArgs(['--data=eval', '--k', '20,5,5', '--json', 'out.json', '--url', 'http://127.0.0.1:8080/', '--key=k', '--keep', 'keep', '--dynamic-scoring', 'off']);
    expect(options).to.include({ data: 'eval', json: 'out.json', url: 'http://127.0.0.1:8080', key: 'k', keep: 'keep', dynamicScoring: false });
    expect(options.ks).to.deep.equal([5, 20]);
    expect(options.modes, 'none started for --url').to.deep.equal([]);
  });

  it('starts the modes named, embedded first, each once', () => {
    expect(parseBenchArgs(['--data', 'x', '--modes', 'distributed,embedded,distributed']).modes).to.deep.equal(['embedded', 'distributed']);
    expect(parseBenchArgs(['--data', 'x', '--modes=distributed']).modes).to.deep.equal(['distributed']);
    expect(parseBenchArgs(['--data', 'x', '--modes', 'embedded,distributed', '--keep', 'k'])).to.include({ keep: 'k' });
  });

  it('names the flag that is wrong', () => {
    const cases: Array<[string[], RegExp]> = [
      [[], /--data <dir> is required/],
      [['--data'], /--data needs a value/],
      [['--data', 'x', '--k', '5,ten'], /--k takes whole numbers from 1 to 100, not "ten"/],
      [['--data', 'x', '--k', '101'], /--k takes whole numbers from 1 to 100/],
      [['--data', 'x', '--url', 'http://h:1'], /--url needs --key/],
      [['--data', 'x', '--key', 'k'], /--key needs --url/],
      [['--data', 'x', '--url', 'h:1', '--key', 'k'], /--url must be an http\(s\) base address/],
      [['--data', 'x', '--dynamic-scoring', 'maybe'], /--dynamic-scoring takes on or off/],
      [['--data', 'x', '--concurrency', '0'], /--concurrency takes whole numbers from 1 to 64/],
      [['--data', 'x', '--modes', 'embedded,kafka'], /--modes takes embedded, distributed \(comma-separated\), not "kafka"/],
      [['--data', 'x', '--modes', 'embedded', '--url', 'http://h:1', '--key', 'k'], /give one or the other/],
      [['--data', 'x', '--modes', 'distributed', '--keep', 'k'], /--keep keeps the embedded service's data: it needs embedded in --modes/],
      [['--data', 'x', '--fast'], /unknown option --fast/],
      [['--data', 'x', 'extra'], /unexpected argument "extra"/],
      [['--data', 'x', '--data', 'y'], /--data is given twice/],
    ];
    for (const [argv, message] of cases) expect(() => parseBenchArgs(argv), argv.join(' ')).to.throw(message);
  });
});
