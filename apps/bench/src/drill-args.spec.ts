import { expect } from 'chai';
import { UsageError } from './args.js';
import { parseDrillArgs } from './drill-args.js';

const parse = (line: string) => parseDrillArgs(line.split(' ').filter(Boolean), () => 77);

describe('drill arguments', () => {
  it('reads an outage drill with its defaults, one engine, several or all', () => {
    expect(parse('--engine kafka')).to.deep.equal({ mode: 'outage', engines: ['kafka'], seconds: 20, rate: 10, json: null });
    expect(parse('--engine all --seconds 8 --rate 5 --json out.json')).to.deep.equal({ mode: 'outage', engines: ['kafka', 'registry', 'elasticsearch', 'minio'], seconds: 8, rate: 5, json: 'out.json' });
    expect(parse('--engine elasticsearch,minio')).to.deep.include({ engines: ['elasticsearch', 'minio'] });
  });

  it('reads a crash drill, drawing a seed when none is given', () => {
    expect(parse('--kill random --trials 3')).to.deep.equal({ mode: 'kill', target: 'random', trials: 3, memories: 500, rate: 10, seed: 77, json: null });
    expect(parse('--kill dual-writer --seed 5 --memories 40 --trials 4')).to.deep.include({ target: 'dual-writer', seed: 5, memories: 40, trials: 4 });
  });

  it('reads a join drill with its defaults', () => {
    expect(parse('--join enricher')).to.deep.equal({ mode: 'join', target: 'enricher', memories: 1200, rate: 10, holdS: 20, searchRate: 2, json: null });
    expect(parse('--join search --memories 300 --rate 5 --seconds 10 --searches 20')).to.deep.include({ target: 'search', memories: 300, rate: 5, holdS: 10, searchRate: 20 });
  });

  it('refuses what cannot run, saying why', () => {
    const refusal = (line: string) => {
      try {
        parse(line);
      } catch (error) {
        expect(error).to.be.instanceOf(UsageError);
        return (error as Error).message;
      }
      throw new Error(`"${line}" was accepted`);
    };
    expect(refusal('')).to.equal('give one of --engine, --kill and --join');
    expect(refusal('--engine kafka --kill edge')).to.equal('give one of --engine, --kill and --join');
    expect(refusal('--join search --kill edge')).to.equal('give one of --engine, --kill and --join');
    expect(refusal('--join dual-writer')).to.equal('--join takes enricher or search, not "dual-writer"');
    expect(refusal('--join search --seed 3')).to.equal('--seed goes with --kill');
    expect(refusal('--kill edge --searches 3')).to.equal('--searches goes with --join');
    expect(refusal('--engine arangodb')).to.match(/^--engine takes kafka, registry, elasticsearch, minio/);
    expect(refusal('--kill forgetter')).to.match(/^--kill takes edge, enricher, temporal, dual-writer, calibrator, job-tracker, search or random/);
    expect(refusal('--engine kafka --trials 3')).to.equal('--trials goes with --kill');
    expect(refusal('--kill edge --seconds 3')).to.equal('--seconds goes with --engine or --join');
    expect(refusal('--kill edge --trials 0')).to.equal('--trials takes a whole number >= 1, not "0"');
    expect(refusal('--kill edge --trials 10 --memories 5')).to.equal('--memories (5) must be at least --trials (10)');
    expect(refusal('--engine kafka --rate')).to.equal('--rate needs a value');
    expect(refusal('--engine kafka --loud 1')).to.equal('unknown option --loud');
  });

  it('answers null for --help', () => {
    expect(parse('--engine kafka --help')).to.equal(null);
  });
});
