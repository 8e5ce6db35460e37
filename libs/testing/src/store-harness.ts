import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What a store contract suite needs from an adapter's spec. */
export interface StoreHarness<S> {
  store: S;
  /** Closes the open store and opens the adapter again over the same data; returns the new store. */
  reopen(): Promise<S>;
  /** Closes whatever is open and removes the data. */
  cleanup(): Promise<void>;
}

export type StoreFactory<S> = () => Promise<StoreHarness<S>>;

/**
 * A harness for a store kept in a directory: each test gets a fresh temporary directory, removed afterwards.
 * `open` is how the adapter opens a store over a directory.
 */
export function tempDirStoreFactory<S extends { close(): Promise<void> }>(prefix: string, open: (dir: string) => S | Promise<S>): StoreFactory<S> {
  return async () => {
    const dir = await mkdtemp(join(tmpdir(), `${prefix}-`));
    let current: S | null = await open(dir);
    const harness: StoreHarness<S> = {
      store: current,
      async reopen() {
        await current?.close();
        current = null;
        current = await open(dir);
        harness.store = current;
        return current;
      },
      async cleanup() {
        await current?.close();
        current = null;
        await rm(dir, { recursive: true, force: true });
      },
    };
    return harness;
  };
}
