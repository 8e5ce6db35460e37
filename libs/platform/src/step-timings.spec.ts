import { expect } from 'chai';
import { parseServerTiming, serverTimingHeader, StepTimings, timedPort, timeStep, withStepTimings } from './step-timings.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('step timings', () => {
  it('records each step with its count and summed wall time, across awaits and concurrent branches', async () => {
    const timings = new StepTimings();
    await withStepTimings(timings, async () => {
      await timeStep('a', () => sleep(20));
      await Promise.all([timeStep('b', () => sleep(15)), timeStep('b', () => sleep(15))]);
    });
    const [a, b] = timings.list();
    expect(a!.step).to.equal('a');
    expect(a!.count).to.equal(1);
    expect(a!.ms).to.be.at.least(18);
    expect(b!.step).to.equal('b');
    expect(b!.count).to.equal(2);
    expect(b!.ms).to.be.at.least(28);
  });

  it('records nothing, and changes nothing, outside a recorded unit of work', async () => {
    const timings = new StepTimings();
    expect(await timeStep('outside', async () => 42)).to.equal(42);
    expect(timings.list()).to.deep.equal([]);
  });

  it('keeps two units of work running at once apart', async () => {
    const first = new StepTimings();
    const second = new StepTimings();
    await Promise.all([withStepTimings(first, () => timeStep('one', () => sleep(5))), withStepTimings(second, () => timeStep('two', () => sleep(5)))]);
    expect(first.list().map((s) => s.step)).to.deep.equal(['one']);
    expect(second.list().map((s) => s.step)).to.deep.equal(['two']);
  });

  it('times the async methods of a port by name, passes failures through and leaves other members alone', async () => {
    class Store {
      readonly label = 'store';
      private readonly base = 10;
      async add(n: number): Promise<number> {
        await sleep(5);
        return this.base + n;
      }
      async fail(): Promise<never> {
        throw new Error('engine down');
      }
      size(): number {
        return this.base;
      }
    }
    const store = timedPort('vectors', new Store());
    const timings = new StepTimings();
    await withStepTimings(timings, async () => {
      expect(await store.add(1)).to.equal(11);
      expect(store.size()).to.equal(10);
      expect(store.label).to.equal('store');
      let failure: unknown;
      await store.fail().catch((error: unknown) => (failure = error));
      expect((failure as Error).message).to.equal('engine down');
    });
    expect(timings.list().map(({ step, count }) => ({ step, count }))).to.deep.equal([
      { step: 'vectors.add', count: 1 },
      { step: 'vectors.fail', count: 1 },
    ]);
  });

  it('writes a Server-Timing header and reads it back', () => {
    const header = serverTimingHeader([
      { step: 'vectors.knn', count: 2, ms: 3.456 },
      { step: 'search', count: 1, ms: 12 },
    ]);
    expect(header).to.equal('vectors.knn;dur=3.46;desc="2x", search;dur=12.00;desc="1x"');
    expect(parseServerTiming(header)).to.deep.equal([
      { step: 'vectors.knn', count: 2, ms: 3.46 },
      { step: 'search', count: 1, ms: 12 },
    ]);
    expect(parseServerTiming('cache;desc="hit", db;dur=53')).to.deep.equal([
      { step: 'cache', count: 1, ms: 0 },
      { step: 'db', count: 1, ms: 53 },
    ]);
    expect(parseServerTiming(undefined)).to.deep.equal([]);
  });
});
