import { expect } from 'chai';
import { sleep } from './wait-for.js';

/** The part of an lmdb-js environment (RootDatabase) the poisoner writes through. */
export interface PoisonableEnv {
  openDB(name: string, options: { dupSort?: boolean; encoding: 'binary' }): { put(key: string, value: Buffer): Promise<unknown> };
}

/**
 * Makes the LMDB transaction that holds this event turn's writes to `env` fail for real, with every write in it: a
 * value too large for a dupSort database is refused inside LMDB's write transaction (MDB_BAD_VALSIZE), which aborts
 * it. lmdb-js checks that size only through a handle opened with dupSort, so the refused write goes through a handle
 * opened without. The environment needs room for one more database (maxDbs). The function returned poisons the
 * transaction of its call's event turn, and resolves with what the refused write rejected with.
 */
export async function transactionPoisoner(env: PoisonableEnv): Promise<() => Promise<unknown>> {
  await env.openDB('poison', { dupSort: true, encoding: 'binary' }).put('k', Buffer.alloc(1));
  const unchecked = env.openDB('poison', { encoding: 'binary' });
  return () => unchecked.put('k', Buffer.alloc(4096)).then(() => expect.fail('the poisoned transaction committed'), (error: unknown) => error);
}

/**
 * Runs `write` (one write of a store over `env`) in a transaction that fails, and resolves with what it rejected
 * with. Fails when it succeeds, or when any rejection went unhandled meanwhile: Node ends the process on one, where
 * mocha only looks away. `write` must queue its transaction without waiting for I/O.
 */
export async function failedCommitOf(env: PoisonableEnv, write: () => Promise<unknown>): Promise<unknown> {
  const poison = await transactionPoisoner(env);
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', record);
  try {
    const [outcome, poisoned] = await Promise.allSettled([write(), poison()]);
    expect(poisoned).to.include({ status: 'fulfilled' });
    // A rejection counts as unhandled once the microtasks after it have run; lmdb-js rejects the last of them (the
    // cause's) in the same callback as the writes.
    await sleep(50);
    expect(unhandled.map((reason) => String(reason)), 'rejections nothing handled').to.deep.equal([]);
    if (outcome.status === 'fulfilled') expect.fail('the write in the failed transaction succeeded');
    return outcome.reason;
  } finally {
    process.off('unhandledRejection', record);
  }
}
