import { expect } from 'chai';
import { open } from 'lmdb';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { failedCommitOf, type PoisonableEnv } from '@memory/testing';
import { createEmbeddedSchemaRegistry } from './index.js';

describe('schema-registry-embedded after a failed commit', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'registry-failed-commit-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('fails the registration, leaves nothing unhandled, and the next registration lands', async () => {
    // The registry's four databases fill its maxDbs, and the poison needs one more: the folder is opened first with
    // room for it, and the registry's open shares that LMDB environment (lmdb-js opens a folder once per process).
    const room = open({ path: dir, maxDbs: 8 });
    const registry = await createEmbeddedSchemaRegistry({ dir });
    // The registry's own environment: only a write queued there lands in the same transaction as its writes.
    const env = (registry as unknown as { env: PoisonableEnv }).env;
    const schema = JSON.stringify({ type: 'record', name: 'E', fields: [{ name: 'id', type: 'string' }] });
    try {
      expect(await failedCommitOf(env, () => registry.register('s', schema))).to.be.instanceOf(Error);
      expect(await registry.subjects()).to.deep.equal([]);
      const id = await registry.register('s', schema);
      expect(await registry.schemaByVersion('s', 'latest')).to.include({ id, version: 1 });
    } finally {
      await registry.close();
      await room.close();
    }
  });
});
