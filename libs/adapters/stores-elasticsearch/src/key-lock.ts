/**
 * Runs tasks of one key one after another within this process; tasks of other keys run freely. Used in front of
 * optimistic concurrency: writers of one process queue instead of racing each other into version conflicts, so a
 * burst of N updates of one job costs N round trips instead of up to N * N / 2. Writers in other processes still
 * race, and the version check settles that.
 */
export class KeyLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    // Forget the key once its queue drains, so the map holds only keys with work in flight.
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with work queued or running (for tests). */
  get size(): number {
    return this.tails.size;
  }
}
