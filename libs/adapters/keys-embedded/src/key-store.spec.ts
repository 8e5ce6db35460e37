import { expect } from 'chai';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newDataKey } from '@memory/contracts';
import { describeKeyStoreContract, tempDirStoreFactory } from '@memory/testing';
import { openEmbeddedKeyStore } from './index.js';

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
});
