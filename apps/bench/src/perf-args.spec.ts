import { expect } from 'chai';
import { UsageError } from './args.js';
import { parsePerfArgs } from './perf-args.js';

describe('performance benchmark arguments', () => {
  it('defaults to the small embedded run without JSON', () => {
    expect(parsePerfArgs([])).to.deep.equal({ scale: 'small', mode: 'embedded', json: null, help: false });
  });

  it('takes --json, --scale and --mode, in both spellings', () => {
    expect(parsePerfArgs(['--scale', 'full', '--json=out.json'])).to.deep.equal({ scale: 'full', mode: 'embedded', json: 'out.json', help: false });
    expect(parsePerfArgs(['--json', 'a.json', '--mode=distributed'])).to.deep.equal({ scale: 'small', mode: 'distributed', json: 'a.json', help: false });
    expect(parsePerfArgs(['--scale=quick']).scale).to.equal('quick');
    expect(parsePerfArgs(['--mode', 'both']).mode).to.equal('both');
  });

  it('refuses unknown values and flags, naming them', () => {
    expect(() => parsePerfArgs(['--scale', 'huge'])).to.throw(UsageError, /--scale takes quick, small, full, not "huge"/);
    expect(() => parsePerfArgs(['--mode', 'cluster'])).to.throw(UsageError, /--mode takes embedded, distributed, both, not "cluster"/);
    expect(() => parsePerfArgs(['--json'])).to.throw(UsageError, /--json needs a value/);
    expect(() => parsePerfArgs(['--fast'])).to.throw(UsageError, /unknown option --fast/);
  });
});
