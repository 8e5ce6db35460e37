import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
