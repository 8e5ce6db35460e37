import { expect } from 'chai';
import { createJobIdClock, newDataKey } from '@memory/contracts';
import { Keyring, type DataKeyStore, type KeyRequest } from '@memory/ports';
import { createJobIdIssuer } from './job-ids.js';

/** A key store as the adapters' contract has it: the first key of a subject is kept; `erasedBefore` forgets earlier subjects. */
function sharedKeyStore(erasedBefore = 0) {
  const keys = new Map<string, Buffer>();
  const store = {
    async create(requests: KeyRequest[]) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return requests.map(({ keyId, key }) => {
        if (Number(keyId.split('_').at(-2)) < erasedBefore) return null;
        if (!keys.has(keyId)) keys.set(keyId, key);
        return keys.get(keyId)!;
      });
    },
  } as unknown as DataKeyStore;
  return { store, keys };
}

const scope = { tenantId: 'acme', endUserId: 'alice' };

describe('job ids issued by several processes', () => {
  it('never gives two processes one id, even when their clocks read the same millisecond', async () => {
    const { store, keys } = sharedKeyStore();
    // Two edges whose clocks stand still at one millisecond: each process's own clock moves on by a millisecond a job.
    const edges = [0, 1].map(() => {
      const keyring = new Keyring(store);
      return { keyring, issue: createJobIdIssuer(keyring, createJobIdClock(() => 1_700_000_000_000)) };
    });
    const issued = await Promise.all(Array.from({ length: 40 }, (_, i) => edges[i % 2]!.issue('text', scope).then((job) => ({ ...job, edge: i % 2 }))));
    expect(new Set(issued.map((job) => job.jobId)).size).to.equal(40);
    for (const job of issued) {
      expect(job.jobId).to.equal(`job_${job.acceptedAt}_alice`);
      // The id's key is the one the issuing process holds: what it seals the job's records with.
      expect((await edges[job.edge]!.keyring.keyFor('acme', 'alice', job.jobId)).equals(keys.get(job.jobId)!)).to.equal(true);
    }
  });

  it('refuses, as an erased end user, an id an erasure issued elsewhere already covers', async () => {
    const { store } = sharedKeyStore(2_000);
    const issue = createJobIdIssuer(new Keyring(store), createJobIdClock(() => 1_000));
    const error = await issue('text', scope).then(() => null, (e: unknown) => e);
    expect(error).to.include({ status: 409, code: 'REQUEST.END_USER_ERASED' });
  });

  it('gives up, retriable, when id after id is taken', async () => {
    const taken = { async create(requests: KeyRequest[]) { return requests.map(() => newDataKey()); } } as unknown as DataKeyStore;
    const error = await createJobIdIssuer(new Keyring(taken))('forget', scope).then(() => null, (e: unknown) => e);
    expect(error).to.include({ code: 'JOBS.ID_UNAVAILABLE', retriable: true });
  });
});
