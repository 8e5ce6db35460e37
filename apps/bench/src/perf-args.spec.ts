import { expect } from 'chai';
import { UsageError } from './args.js';
import { parsePerfArgs } from './perf-args.js';

describe('performance benchmark arguments', () => {
  it('defaults to the small embedded run without JSON', () => {
    expect(parsePerfArgs([])).to.deep.equal({ scale: 'small', mode: 'embedded', json: null, help: false });
  });

  it('takes --json and --scale small, in both spellings', () => {
    expect(parsePerfArgs(['--scale', 'small', '--json=out.json']).json).to.equal('out.json');
    expect(parsePerfArgs(['--json', 'a.json', '--mode=embedded']).json).to.equal('a.json');
  });

  it('refuses what it cannot run yet and unknown flags, naming them', () => {
    expect(() => parsePerfArgs(['--scale', 'full'])).to.throw(UsageError, /not written yet/);
    expect(() => parsePerfArgs(['--mode', 'distributed'])).to.throw(UsageError, /not written yet/);
    expect(() => parsePerfArgs(['--json'])).to.throw(UsageError, /--json needs a value/);
    expect(() => parsePerfArgs(['--fast'])).to.throw(UsageError, /unknown option --fast/);
  });
});
