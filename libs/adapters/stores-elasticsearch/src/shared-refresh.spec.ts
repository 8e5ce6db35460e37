import { expect } from 'chai';
import { SharedRefresh } from './shared-refresh.js';

/** A refresh the test ends by hand, recording when each one started. */
function manualRefreshes() {
  const started: number[] = [];
  const pending: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  const refresh = () =>
    new Promise<void>((resolve, reject) => {
      started.push(Date.now());
      pending.push({ resolve, reject });
    });
  const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
  /** Ends the oldest refresh still running, once it has started. */
  const end = async (error?: Error) => {
    while (pending.length === 0) await tick();
    const next = pending.shift()!;
    if (error) next.reject(error);
    else next.resolve();
    await tick();
  };
  return { refresh, started, end, tick };
}

const settled = (promise: Promise<unknown>) => {
  const state = { done: false, error: undefined as unknown };
  promise.then(
    () => (state.done = true),
    (error: unknown) => ((state.done = true), (state.error = error)),
  );
  return state;
};

describe('SharedRefresh', () => {
  it('starts a refresh for a lone write at once, and resolves when it ends', async () => {
    const refreshes = manualRefreshes();
    const shared = new SharedRefresh(refreshes.refresh, 0);
    const write = settled(shared.afterWrites());
    await refreshes.tick();
    expect(refreshes.started).to.have.length(1);
    expect(write.done).to.equal(false);
    await refreshes.end();
    expect(write.done).to.equal(true);
  });

  it('serves every write that comes while a refresh runs by one next refresh, never by the running one', async () => {
    const refreshes = manualRefreshes();
    const shared = new SharedRefresh(refreshes.refresh, 0);
    const first = settled(shared.afterWrites());
    await refreshes.tick();
    const later = Array.from({ length: 5 }, () => settled(shared.afterWrites()));
    await refreshes.end();
    expect(first.done).to.equal(true);
    expect(later.map((write) => write.done), 'acknowledged after the first refresh started').to.deep.equal([false, false, false, false, false]);
    expect(refreshes.started).to.have.length(2);
    await refreshes.end();
    expect(later.every((write) => write.done && write.error === undefined)).to.equal(true);
    expect(refreshes.started).to.have.length(2);
  });

  it('starts the next refresh no sooner than the spacing after the last one started', async () => {
    const refreshes = manualRefreshes();
    const shared = new SharedRefresh(refreshes.refresh, 80);
    const first = shared.afterWrites();
    await refreshes.end();
    await first;
    const second = shared.afterWrites();
    await refreshes.end();
    await second;
    expect(refreshes.started[1]! - refreshes.started[0]!).to.be.at.least(75);
  });

  it('fails the writes a failed refresh served, and starts afresh for the next', async () => {
    const refreshes = manualRefreshes();
    const shared = new SharedRefresh(refreshes.refresh, 0);
    const failed = settled(shared.afterWrites());
    await refreshes.end(new Error('no shard available'));
    expect(failed.error).to.be.instanceOf(Error);
    const next = settled(shared.afterWrites());
    await refreshes.end();
    expect(next).to.deep.equal({ done: true, error: undefined });
    expect(refreshes.started).to.have.length(2);
  });
});
