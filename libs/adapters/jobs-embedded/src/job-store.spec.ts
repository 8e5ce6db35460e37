import { expect } from 'chai';
import { open } from 'lmdb';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JobRecord } from '@memory/ports';
import { describeJobStoreContract, expectCode, tempDirStoreFactory } from '@memory/testing';
import { createEmbeddedJobStore } from './index.js';

describeJobStoreContract('jobs-embedded', tempDirStoreFactory('jobs-embedded', (dir) => createEmbeddedJobStore({ dir })));

describe('jobs-embedded', () => {
  it('applies concurrent updates from two stores open on one directory in turn', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'jobs-embedded-'));
    const first = createEmbeddedJobStore({ dir });
    const second = createEmbeddedJobStore({ dir });
    try {
      const bump = (store: typeof first) =>
        store.update('t', 'j', (current) => ({
          jobId: 'j', tenantId: 't', endUserId: 'u', state: 'Processing', stage: null,
          partCount: (current?.partCount ?? 0) + 1, memoryIds: [], errorCode: null, reason: null, acceptedAt: 1, updatedAt: 1,
        }));
      await Promise.all(Array.from({ length: 40 }, (_, i) => bump(i % 2 ? first : second)));
      expect((await first.get('t', 'j'))!.partCount).to.equal(40);
    } finally {
      await first.close();
      await second.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('counts the jobs of a data folder made before the tally once, when it opens, and keeps counting from there', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'jobs-embedded-'));
    const job = (jobId: string, state: JobRecord['state']): JobRecord => ({
      jobId, tenantId: 't', endUserId: 'u', state, stage: null, partCount: null, memoryIds: [], errorCode: null, reason: null, acceptedAt: 1, updatedAt: 1,
    });
    try {
      // A folder as the store wrote it before the tally existed: job records and no job-states table.
      const env = open({ path: dir, maxDbs: 2 });
      const jobs = env.openDB<JobRecord, [string, string]>('jobs', { sharedStructuresKey: Symbol.for('structures') });
      await env.transaction(() => {
        for (let i = 0; i < 5; i++) jobs.put(['t', `j${i}`], job(`j${i}`, i < 3 ? 'Completed' : 'Failed'));
      });
      await env.close();

      const store = createEmbeddedJobStore({ dir });
      expect(await store.countByState()).to.deep.equal({ Completed: 3, Failed: 2 });
      await store.update('t', 'j3', (current) => ({ ...current!, state: 'Completed' }));
      await store.update('t', 'j9', () => job('j9', 'Accepted'));
      const other = createEmbeddedJobStore({ dir }); // a second store on the folder sees the same tally
      expect(await other.countByState()).to.deep.equal({ Completed: 4, Failed: 1, Accepted: 1 });
      await other.forget('t', ['j0', 'j9']);
      expect(await store.countByState()).to.deep.equal({ Completed: 3, Failed: 1 });
      await other.close();
      await store.close();
      const reopened = createEmbeddedJobStore({ dir });
      expect(await reopened.countByState()).to.deep.equal({ Completed: 3, Failed: 1 });
      await reopened.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('rejects empty keys and use after close with stable codes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'jobs-embedded-'));
    const store = createEmbeddedJobStore({ dir });
    await expectCode(store.get('', 'j'), 'JOBS.INVALID_ARGUMENT');
    await store.close();
    await expectCode(store.get('t', 'j'), 'JOBS.CLOSED');
    await rm(dir, { recursive: true, force: true });
  });

  it('validates options before opening anything', () => {
    expect(() => createEmbeddedJobStore({ dir: '' })).to.throw(/dir must be a non-empty path/);
  });
});
