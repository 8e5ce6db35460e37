import { expect } from 'chai';
import { KeyLock } from './key-lock.js';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('KeyLock', () => {
  it('runs the tasks of one key in turn, other keys alongside, and forgets drained keys', async () => {
    const lock = new KeyLock();
    const log: string[] = [];
    const task = (name: string, ms: number) => async () => {
      log.push(`start ${name}`);
      await tick(ms);
      log.push(`end ${name}`);
      return name;
    };
    const results = await Promise.all([lock.run('a', task('a1', 20)), lock.run('a', task('a2', 1)), lock.run('b', task('b1', 5))]);
    expect(results).to.deep.equal(['a1', 'a2', 'b1']);
    expect(log.indexOf('start a2')).to.be.greaterThan(log.indexOf('end a1'));
    expect(log.indexOf('start b1')).to.be.lessThan(log.indexOf('end a1'));
    await tick(0);
    expect(lock.size).to.equal(0);
  });

  it('keeps going after a task fails, and hands the failure to its caller only', async () => {
    const lock = new KeyLock();
    const failure = new Error('no');
    const first = lock.run('k', async () => {
      throw failure;
    });
    const second = lock.run('k', async () => 'fine');
    expect(await first.catch((error: unknown) => error)).to.equal(failure);
    expect(await second).to.equal('fine');
  });
});
