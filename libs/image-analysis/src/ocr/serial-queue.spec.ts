import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { createSerialQueue } from './serial-queue.js';

describe('createSerialQueue', () => {
  it('runs one task at a time, in call order', async () => {
    const queue = createSerialQueue();
    const events: string[] = [];
    let running = 0;
    const task = (name: string, ms: number) => async () => {
      running += 1;
      expect(running).to.equal(1);
      events.push(`start ${name}`);
      await sleep(ms);
      events.push(`end ${name}`);
      running -= 1;
      return name;
    };
    const results = await Promise.all([queue.run(task('a', 15)), queue.run(task('b', 1)), queue.run(task('c', 5))]);
    expect(results).to.deep.equal(['a', 'b', 'c']);
    expect(events).to.deep.equal(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('keeps going after a task fails, and idle() waits for everything queued', async () => {
    const queue = createSerialQueue();
    const failed = queue.run(async () => {
      throw new Error('boom');
    });
    let done = false;
    void queue.run(async () => {
      await sleep(5);
      done = true;
    });
    await failed.catch((error: Error) => expect(error.message).to.equal('boom'));
    await queue.idle();
    expect(done).to.equal(true);
  });
});
