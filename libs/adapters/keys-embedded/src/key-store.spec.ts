import { expect } from 'chai';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newDataKey } from '@memory/contracts';
import { describeKeyStoreContract, runScript, straceUnavailable, tempDirStoreFactory } from '@memory/testing';
import { openEmbeddedKeyStore } from './index.js';

const FORGET_CHILD = fileURLToPath(new URL('../test/forget-child.ts', import.meta.url));

const factory = tempDirStoreFactory('keys-embedded', (dir) => openEmbeddedKeyStore({ dir }));
describeKeyStoreContract('keys-embedded', factory);

describe('keys-embedded', () => {
  /** Every byte of every file under dir: what someone who copies the data folder holds. */
  const allBytes = async (dir: string): Promise<Buffer> => {
    const files = await readdir(dir, { recursive: true, withFileTypes: true });
    return Buffer.concat(await Promise.all(files.filter((f) => f.isFile()).map((f) => readFile(join(f.parentPath, f.name)))));
  };

  it('leaves no byte of a destroyed key in its files (freed pages included), and keeps the others', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'keys-embedded-bytes-'));
    const store = await openEmbeddedKeyStore({ dir });
    const harness = { store, cleanup: () => rm(dir, { recursive: true, force: true }) };
    try {
      const alice = { tenantId: 'acme', endUserId: 'alice' };
      const keys = new Map(Array.from({ length: 300 }, (_, i) => [`job_${1_700_000_000_000 + i}_alice`, newDataKey()] as const));
      await harness.store.create([...keys].map(([keyId, key]) => ({ scope: alice, keyId, key })));
      const forgotten = [...keys.keys()].slice(0, 150);
      await harness.store.forget(alice, forgotten);
      await harness.store.erase({ tenantId: 'acme', endUserId: 'alice' }, 1_700_000_000_000 + 200);
      await harness.store.scrub();
      const scrubbed = await allBytes(dir);
      for (const id of forgotten) expect(scrubbed.includes(keys.get(id)!), `key of ${id}, after scrub`).to.equal(false);
      await harness.store.create([{ scope: alice, keyId: 'job_1800000000000_alice', key: newDataKey() }]);
      await harness.store.forget(alice, [[...keys.keys()][299]!]);
      await harness.store.close();
      const bytes = await allBytes(dir);
      for (const id of forgotten) expect(bytes.includes(keys.get(id)!), `key of ${id}`).to.equal(false);
      for (const id of [...keys.keys()].slice(150, 200)) expect(bytes.includes(keys.get(id)!), `erased key of ${id}`).to.equal(false);
      for (const id of [...keys.keys()].slice(200, 299)) expect(bytes.includes(keys.get(id)!), `live key of ${id}`).to.equal(true);
      expect(bytes.includes(keys.get([...keys.keys()][299]!)!), 'destroyed before close: close scrubs').to.equal(false);
    } finally {
      await harness.cleanup();
    }
  });

  it('lets shared reads and writes run while a compaction swaps the file', async () => {
    const harness = await factory();
    try {
      const alice = { tenantId: 'acme', endUserId: 'alice' };
      const writes = Array.from({ length: 200 }, (_, i) => harness.store.create([{ scope: alice, keyId: `job_${1_700_000_000_000 + i}_alice`, key: newDataKey() }]));
      const forgets = Array.from({ length: 5 }, (_, i) => harness.store.forget(alice, [`job_${1_700_000_000_000 + i * 7}_alice`]).then(() => harness.store.scrub()));
      await Promise.all([...writes, ...forgets]);
      const found = await harness.store.get(alice, Array.from({ length: 200 }, (_, i) => `job_${1_700_000_000_000 + i}_alice`));
      expect(found.size).to.equal(195);
    } finally {
      await harness.cleanup();
    }
  });

  /** 300 keys of alice, the first 150 to destroy: enough that their pages are freed, not rewritten in place. */
  const childConfig = (dir: string, then: 'scrub' | 'killed') => {
    const keys = Array.from({ length: 300 }, (_, i) => [`job_${1_700_000_000_000 + i}_alice`, newDataKey()] as const);
    return { keys, config: JSON.stringify({ dir, keys: keys.map(([id, key]) => [id, key.toString('hex')]), forget: keys.slice(0, 150).map(([id]) => id), then }) };
  };

  it('leaves no byte of a destroyed key when killed right after the destroying commit, once reopened', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'keys-embedded-killed-'));
    try {
      const { keys, config } = childConfig(join(dir, 'keys'), 'killed');
      const exit = await runScript(FORGET_CHILD, [config]);
      expect(exit.signal, exit.output).to.equal('SIGKILL');
      const destroyed = keys.slice(0, 150);
      // The crash left the destroyed keys in freed pages: what the mark made before the commit must clear.
      const crashed = await allBytes(join(dir, 'keys'));
      expect(destroyed.some(([, key]) => crashed.includes(key)), 'destroyed keys in freed pages after the kill').to.equal(true);
      const store = await openEmbeddedKeyStore({ dir: join(dir, 'keys') });
      expect((await store.get({ tenantId: 'acme', endUserId: 'alice' }, keys.map(([id]) => id))).size).to.equal(150);
      await store.close();
      const bytes = await allBytes(join(dir, 'keys'));
      for (const [id, key] of destroyed) expect(bytes.includes(key), `destroyed key of ${id}`).to.equal(false);
      for (const [id, key] of keys.slice(150)) expect(bytes.includes(key), `live key of ${id}`).to.equal(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  /**
   * The order of the system calls, watched with strace: a fake file system would only show the order of our own
   * calls, not that the copy LMDB wrote (without fsyncing it) is on disk before it replaces the store.
   */
  it('puts the compacted copy on disk before renaming it over the store, and the rename before removing the mark', async function () {
    const unavailable = straceUnavailable();
    if (unavailable) {
      console.warn(`      skipped: ${unavailable}`);
      this.skip();
    }
    const dir = await mkdtemp(join(tmpdir(), 'keys-embedded-fsync-'));
    try {
      const keysDir = join(dir, 'keys');
      const { keys, config } = childConfig(keysDir, 'scrub');
      const trace = join(dir, 'trace');
      const exit = await runScript(FORGET_CHILD, [config], ['strace', '-f', '-y', '-qq', '-e', 'trace=fsync,fdatasync,rename,renameat,renameat2,unlink,unlinkat', '-o', trace]);
      expect(exit.code, exit.output).to.equal(0);
      const calls = completedCalls(await readFile(trace, 'utf8'));
      const at = (what: string, test: (call: string) => boolean) => {
        const index = calls.findIndex(test);
        expect(index, `${what} in:\n${calls.join('\n')}`).to.be.at.least(0);
        return index;
      };
      const synced = (path: string) => (call: string) => /^f(data)?sync\(/.test(call) && call.includes(`<${path}>)`);
      const copySynced = at('fsync of the copy', synced(`${keysDir}.compacting/data.mdb`));
      const renamed = at('rename of the copy', (call) => /^rename(at2?)?\(/.test(call) && call.includes(`"${keysDir}.compacting/data.mdb"`) && call.includes(`"${keysDir}/data.mdb"`));
      const markRemoved = at('removal of the mark', (call) => /^unlink(at)?\(/.test(call) && call.includes(`${keysDir}/compaction-pending"`));
      const dirSynced = calls.map((call, index) => (synced(keysDir)(call) ? index : -1)).filter((index) => index >= 0);
      expect(copySynced, 'the copy is fsynced before the rename').to.be.below(renamed);
      expect(dirSynced.some((index) => index > renamed && index < markRemoved), 'the directory is fsynced between the rename and the removal of the mark').to.equal(true);
      expect(dirSynced.some((index) => index > markRemoved), 'the directory is fsynced after the removal of the mark').to.equal(true);
      const store = await openEmbeddedKeyStore({ dir: keysDir });
      expect((await store.get({ tenantId: 'acme', endUserId: 'alice' }, keys.map(([id]) => id))).size, 'the kept keys survive the compaction').to.equal(150);
      await store.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/**
 * The system calls of an `strace -f -y` output, each at the line where it returned (a call another thread
 * interrupted is printed as `<unfinished ...>`, then `<... name resumed>`), without the pid.
 */
function completedCalls(trace: string): string[] {
  const unfinished = new Map<string, string>();
  const calls: string[] = [];
  for (const line of trace.split('\n')) {
    const match = /^(\d+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const [, pid, call] = match as unknown as [string, string, string];
    if (call.endsWith('<unfinished ...>')) unfinished.set(pid, call.slice(0, -'<unfinished ...>'.length));
    else if (call.startsWith('<...')) {
      calls.push(`${unfinished.get(pid) ?? ''}${call.replace(/^<\.\.\. \w+ resumed>/, '')}`);
      unfinished.delete(pid);
    } else calls.push(call);
  }
  return calls;
}
