import { expect } from 'chai';
import type { JobRecord } from '@memory/ports';
import { jobWhenSettled } from './job-wait.js';

const job = (state: JobRecord['state']): JobRecord => ({ jobId: 'job_1_u', tenantId: 't', endUserId: 'u', state, stage: null, partCount: null, memoryIds: [], errorCode: null, reason: null, acceptedAt: 1, updatedAt: 1 });

describe('long poll of a job', () => {
  it('answers as soon as the job settles', async () => {
    const states: JobRecord['state'][] = ['Accepted', 'Processing', 'Completed'];
    let reads = 0;
    const started = Date.now();
    const found = await jobWhenSettled(async () => job(states[Math.min(reads++, 2)]!), 10_000, new AbortController().signal);
    expect(found!.state).to.equal('Completed');
    expect(reads).to.equal(3);
    expect(Date.now() - started).to.be.below(1_000);
  });

  it('answers with the current state when the wait ends, and at once for a wait of 0', async () => {
    let reads = 0;
    const started = Date.now();
    expect((await jobWhenSettled(async () => (reads++, job('Processing')), 300, new AbortController().signal))!.state).to.equal('Processing');
    expect(Date.now() - started).to.be.within(280, 1_000);
    expect(reads).to.be.above(2);
    reads = 0;
    await jobWhenSettled(async () => (reads++, job('Processing')), 0, new AbortController().signal);
    expect(reads).to.equal(1);
  });

  it('stops reading when the client goes away', async () => {
    const gone = new AbortController();
    setTimeout(() => gone.abort(), 100);
    const started = Date.now();
    await jobWhenSettled(async () => job('Processing'), 20_000, gone.signal);
    expect(Date.now() - started).to.be.below(1_000);
  });
});
