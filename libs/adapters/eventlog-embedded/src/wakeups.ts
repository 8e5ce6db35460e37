/**
 * In-process notification from appends to idle consumers, so a record reaches its handler within milliseconds
 * instead of at the next poll. The owning process is the only writer (see dir-lock), so no append can be missed;
 * the poll interval only bounds the wait if something unforeseen does.
 */
export class Wakeups {
  private readonly waiters = new Map<string, Set<() => void>>();

  /** Resolves on the next append to the partition, after timeoutMs, or when `stop` fires, whichever is first. */
  wait(topic: string, partition: number, timeoutMs: number, stop: Latch): Promise<void> {
    const slot = slotOf(topic, partition);
    return new Promise<void>((resolve) => {
      let set = this.waiters.get(slot);
      if (!set) this.waiters.set(slot, (set = new Set()));
      const waiters = set;
      const done = () => {
        clearTimeout(timer);
        unsubscribe();
        waiters.delete(done);
        if (waiters.size === 0 && this.waiters.get(slot) === waiters) this.waiters.delete(slot);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      const unsubscribe = stop.onFire(done);
      waiters.add(done);
    });
  }

  notify(topic: string, partition: number): void {
    const set = this.waiters.get(slotOf(topic, partition));
    if (set) for (const wake of [...set]) wake();
  }
}

function slotOf(topic: string, partition: number): string {
  return `${topic}\u0000${partition}`;
}

/** A one-shot signal (stop, close) that waits can subscribe to and unsubscribe from without leaking. */
export class Latch {
  fired = false;
  private readonly listeners = new Set<() => void>();

  fire(): void {
    if (this.fired) return;
    this.fired = true;
    for (const listener of [...this.listeners]) listener();
    this.listeners.clear();
  }

  /** Calls listener when the latch fires (at once if it already has); returns the unsubscribe function. */
  onFire(listener: () => void): () => void {
    if (this.fired) {
      queueMicrotask(listener);
      return () => {};
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** Sleeps for ms, or less if the latch fires first. */
export function sleepUnless(ms: number, latch: Latch): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    };
    const timer = setTimeout(done, ms);
    const unsubscribe = latch.onFire(done);
  });
}
