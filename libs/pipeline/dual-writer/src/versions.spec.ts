import { expect } from 'chai';
import type { MemoryEnriched } from '@memory/contracts';
import type { StoredMemory } from '@memory/ports';
import { nextVersion } from './versions.js';

const event = (jobId: string, content: string, acceptedAt: number, cause: MemoryEnriched['cause']) => ({ memoryId: 'mem_job_1_alice_0', jobId, content, acceptedAt, cause }) as MemoryEnriched;
const stored = (decision: ReturnType<typeof nextVersion>): StoredMemory => {
  if (!decision.write) throw new Error('expected a write');
  return { id: 'mem_job_1_alice_0', jobId: 'job_1_alice', content: decision.versions.at(-1)!.content, acceptedAt: 1, version: decision.version, versions: decision.versions } as StoredMemory;
};

describe('nextVersion', () => {
  const ingest = event('job_1_alice', 'first', 1, null);
  const update = event('upd_job_5_alice', 'second', 5, 'update');
  const again = event('upd_job_6_alice', 'third', 6, 'update');

  it('numbers versions in log order from what the store holds, the cause of each kept', () => {
    const v1 = nextVersion(null, ingest);
    const v2 = nextVersion(stored(v1), update);
    const v3 = nextVersion(stored(v2), again);
    expect(v3).to.deep.equal({
      write: true, version: 3,
      versions: [
        { version: 1, jobId: 'job_1_alice', content: 'first', changedAt: 1, cause: 'ingest' },
        { version: 2, jobId: 'upd_job_5_alice', content: 'second', changedAt: 5, cause: 'update' },
        { version: 3, jobId: 'upd_job_6_alice', content: 'third', changedAt: 6, cause: 'update' },
      ],
    });
  });

  it('gives a redelivered job its own number again, and never writes an older version over a newer one', () => {
    const v2 = stored(nextVersion(stored(nextVersion(null, ingest)), update));
    expect(nextVersion(v2, update)).to.deep.equal({ write: true, version: 2, versions: v2.versions });
    expect(nextVersion(v2, ingest)).to.deep.equal({ write: false, version: 1 });
  });

  it('reads a memory stored before versions as version 1 of its ingestion job', () => {
    const legacy = { id: 'mem_job_1_alice_0', jobId: 'job_1_alice', content: 'first', acceptedAt: 1 } as StoredMemory;
    const decision = nextVersion(legacy, update);
    expect(decision.write && decision.versions.map((v) => [v.version, v.jobId])).to.deep.equal([[1, 'job_1_alice'], [2, 'upd_job_5_alice']]);
  });
});
