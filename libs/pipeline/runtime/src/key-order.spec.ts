import { expect } from 'chai';
import type { LogRecord } from '@memory/ports';
import { KeyOrder } from './key-order.js';

/** A record of key `key` at `offset` (its value names both, so a call's records read as ['k@1', 'j@4']). */
const record = (key: string, offset: number): LogRecord => ({
  topic: 't', partition: 0, offset, key, value: Buffer.from(`${key}@${offset}`), timestamp: offset, headers: {},
});

/** Lets the promise callbacks queued so far (KeyOrder starts and settles parts in microtasks) run. */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The stage as the runner hands it to KeyOrder (runner.ts: `new KeyOrder((records) => handleBatch(records))`), each
 * call held open by a gate the spec opens or fails: calls lists what went to the stage, in order.
 */
function gatedStage() {
  const calls: Array<{ records: string[]; open: () => void; fail: (error: Error) => void }> = [];
  const run = (records: LogRecord[]) =>
    new Promise<void>((open, fail) => calls.push({ records: records.map((r) => r.value.toString()), open, fail }));
  const call = (first: string) => {
    const found = calls.find((c) => c.records[0] === first);
    if (!found) throw new Error(`no call starting with ${first}; calls: ${JSON.stringify(calls.map((c) => c.records))}`);
    return found;
  };
  return { calls, run, call, sent: () => calls.map((c) => c.records) };
}

/** A batch's outcome, read without awaiting it (the runner awaits handle() per batch, as the log's handler). */
function outcome(promise: Promise<void>) {
  const state: { status: 'pending' | 'done' | 'failed'; error?: unknown } = { status: 'pending' };
  promise.then(
    () => (state.status = 'done'),
    (error: unknown) => Object.assign(state, { status: 'failed', error }),
  );
  return state;
}

describe('KeyOrder', () => {
  it('hands a key\'s later records to the stage only after its earlier batch ends, other keys at once', async () => {
    const stage = gatedStage();
    const order = new KeyOrder(stage.run);
    const first = outcome(order.handle([record('k', 1)]));
    const second = outcome(order.handle([record('k', 2), record('j', 3)]));
    const third = outcome(order.handle([record('k', 4)]));
    await settled();
    // j is free and goes at once; k's later records wait for k@1.
    expect(stage.sent()).to.deep.equal([['k@1'], ['j@3']]);
    stage.call('j@3').open();
    await settled();
    expect(stage.sent()).to.have.length(2);
    stage.call('k@1').open();
    await settled();
    // Both of k's waiting records became ready together: one call, in log order.
    expect(stage.sent()).to.deep.equal([['k@1'], ['j@3'], ['k@2', 'k@4']]);
    expect(first.status).to.equal('done');
    expect(second.status).to.equal('pending');
    stage.call('k@2').open();
    await settled();
    expect([first.status, second.status, third.status]).to.deep.equal(['done', 'done', 'done']);
  });

  it('fails the parts waiting behind a failed one without running them', async () => {
    const stage = gatedStage();
    const order = new KeyOrder(stage.run);
    const first = outcome(order.handle([record('k', 1)]));
    const second = outcome(order.handle([record('k', 2)]));
    await settled();
    const boom = new Error('boom');
    stage.call('k@1').fail(boom);
    await settled();
    expect(stage.sent()).to.deep.equal([['k@1']]);
    expect(first).to.deep.equal({ status: 'failed', error: boom });
    expect(second).to.deep.equal({ status: 'failed', error: boom });
  });

  it('keeps a key held by its earlier batch still running when a part waiting on it fails because of another key', async () => {
    const stage = gatedStage();
    const order = new KeyOrder(stage.run);
    const k1 = outcome(order.handle([record('k', 1)]));
    const j2 = outcome(order.handle([record('j', 2)]));
    // Both keys are held: this batch waits on k@1's and j@2's.
    const later = outcome(order.handle([record('k', 3), record('j', 4)]));
    await settled();
    expect(stage.sent()).to.deep.equal([['k@1'], ['j@2']]);

    const boom = new Error('boom');
    stage.call('k@1').fail(boom);
    await settled();
    const j5 = outcome(order.handle([record('j', 5)]));
    await settled();
    // j@2 is still with the stage: j@5 must not overtake it (it did when the failed batch let go of j).
    expect(stage.sent()).to.deep.equal([['k@1'], ['j@2']]);
    expect(k1.status).to.equal('failed');
    expect(j2.status).to.equal('pending');

    stage.call('j@2').open();
    await settled();
    // The failed batch's j@4 is delivered again after it: j@5 fails without running rather than going before it.
    expect(stage.sent()).to.deep.equal([['k@1'], ['j@2']]);
    expect(j2.status).to.equal('done');
    expect(later).to.deep.equal({ status: 'failed', error: boom });
    expect(j5).to.deep.equal({ status: 'failed', error: boom });

    // With every part settled no key is held: the redelivered batches go to the stage at once, in order.
    const again = outcome(order.handle([record('k', 3), record('j', 4)]));
    await settled();
    expect(stage.sent()).to.deep.equal([['k@1'], ['j@2'], ['k@3', 'j@4']]);
    stage.call('k@3').open();
    await settled();
    expect(again.status).to.equal('done');
  });
});
