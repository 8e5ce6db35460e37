import { expect } from 'chai';
import { mapWithConcurrency, withTimeout } from './concurrency.js';

describe('mapWithConcurrency', () => {
  it('keeps the items\' order and never runs more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const results = await mapWithConcurrency([30, 10, 20, 5, 15], 2, async (ms, index) => {
      most = Math.max(most, ++running);
      await new Promise((resolve) => setTimeout(resolve, ms));
      running--;
      return index;
    });
    expect(results).to.deep.equal([0, 1, 2, 3, 4]);
    expect(most).to.equal(2);
  });
});

describe('withTimeout', () => {
  it('answers with the value of a promise that settles in time', async () => {
    expect(await withTimeout(Promise.resolve(7), 50, 'a read')).to.equal(7);
  });

  it('rejects, naming what was late, when the promise has not settled in time', async () => {
    const never = new Promise<number>(() => undefined);
    const started = Date.now();
    const error = await withTimeout(never, 30, 'the backlog reading').catch((caught: Error) => caught);
    expect(error).to.be.instanceOf(Error);
    expect((error as Error).message).to.equal('the backlog reading took more than 30 ms');
    expect(Date.now() - started).to.be.lessThan(1_000);
  });

  it('passes on the promise\'s own rejection', async () => {
    const error = await withTimeout(Promise.reject(new Error('engine down')), 50, 'a read').catch((caught: Error) => caught);
    expect((error as Error).message).to.equal('engine down');
  });
});
