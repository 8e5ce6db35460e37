import * as lmdb from 'lmdb';
import type { RootDatabase } from 'lmdb';
import { transactionPoisoner } from '@memory/testing';

/**
 * memoryd as main.ts runs it, with a lever for a test: on SIGUSR2 the next write transaction of one of its LMDB
 * environments (MEMORY_TEST_POISONED_ENV: the folder's name under the data folder, e.g. keys) fails for real, with
 * the service's own writes in it. lmdb-js keeps every database it opened in `allDbs`, the root one under the name
 * of its folder; a write queued by a `beforecommit` listener joins the batch about to be committed.
 */
const name = process.env['MEMORY_TEST_POISONED_ENV'] ?? 'keys';
const allDbs = (lmdb as unknown as { allDbs: Map<string, RootDatabase> }).allDbs;
const poisoners = new WeakMap<RootDatabase, () => Promise<unknown>>();
let armed: RootDatabase | null = null;

async function arm(): Promise<void> {
  const env = allDbs.get(name);
  if (!env) throw new Error(`no LMDB environment named ${name} is open`);
  if (!poisoners.has(env)) {
    poisoners.set(env, await transactionPoisoner(env));
    env.on('beforecommit', () => {
      if (armed !== env) return;
      armed = null;
      poisoners.get(env)!().then(
        (error) => process.stdout.write(`the poisoned commit of ${name} failed: ${String(error)}\n`),
        (error: unknown) => process.stdout.write(`the poisoned commit of ${name} did not fail: ${String(error)}\n`),
      );
    });
  }
  armed = env;
}

process.on('SIGUSR2', () => {
  arm().then(
    () => process.stdout.write(`the next commit of ${name} will fail\n`),
    (error: unknown) => process.stdout.write(`could not arm the poison: ${String(error)}\n`),
  );
});

await import('../src/main.js');
