import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { expectError, ServiceProcess, waitFor } from '@memory/testing';
import { caller, KEYS, waitForJob } from './harness.js';

const POISONABLE_MAIN = fileURLToPath(new URL('./poisonable-main.ts', import.meta.url));

/**
 * A commit of one LMDB store fails for real inside memoryd (the data key's, the first write of an accept): the
 * request answers a retriable 503, and the process goes on serving, where lmdb-js's unhandled rejections ended it.
 */
describe('memoryd after a failed LMDB commit (embedded default)', function () {
  this.timeout(120_000);
  const memoryd = new ServiceProcess({ entry: POISONABLE_MAIN, env: { MEMORY_TEST_POISONED_ENV: 'keys' } });
  before(() => memoryd.start());
  after(async () => {
    await memoryd.stop();
    memoryd.cleanup();
  });

  it('answers the write whose commit failed with a retriable 503, keeps serving, and accepts the retry', async () => {
    const api = caller(memoryd, KEYS.acme, 'ada');
    const body = { source: { type: 'text', content: 'The heron returned to the north pond at dusk.' } };
    const pid = memoryd.pid!;
    process.kill(pid, 'SIGUSR2');
    await waitFor(() => memoryd.logs().includes('the next commit of keys will fail'), 'the poison armed');

    expectError(await api.post('/v1/memory', body), 503, 'SERVICE.UNAVAILABLE');
    await waitFor(() => memoryd.logs().includes('the poisoned commit of keys failed'), 'the poisoned commit failed');
    expect(memoryd.logs(), 'the failure as memoryd logged it').to.include('KEYS.STORAGE');

    const retry = await api.post('/v1/memory', body);
    expect(retry.status, JSON.stringify(retry.body)).to.equal(202);
    expect((await waitForJob(api, retry.body.jobId)).status).to.equal('Completed');
    expect(memoryd.pid, 'the same process still serves').to.equal(pid);
    expect(() => process.kill(pid, 0), 'memoryd is alive').to.not.throw();
  });
});
