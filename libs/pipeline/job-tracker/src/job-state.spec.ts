import { expect } from 'chai';
import { jobStatusOf, type JobStatus } from '@memory/contracts';
import { applyJobStatus, applyJobStatuses } from './job-state.js';

const base: JobStatus = jobStatusOf({ jobId: 'doc_job_1_u', tenantId: 't', endUserId: 'u' }, 'Processing');
const s = (extra: Partial<JobStatus>): JobStatus => ({ ...base, ...extra });

describe('applyJobStatus', () => {
  it('moves Accepted → Processing → Completed when every part is done', () => {
    let job = applyJobStatus(null, s({ state: 'Accepted', stage: 'edge' }), 10);
    expect(job.state).to.equal('Accepted');
    job = applyJobStatus(job, s({ stage: 'enricher' }), 20);
    expect(job.state).to.equal('Processing');
    job = applyJobStatus(job, s({ state: 'Completed', stage: 'centroid-calibrator', partIndex: 1, partCount: 2, memoryId: 'm1' }), 30);
    expect(job.state).to.equal('Processing');
    job = applyJobStatus(job, s({ state: 'Completed', stage: 'centroid-calibrator', partIndex: 0, partCount: 2, memoryId: 'm0' }), 40);
    expect(job.state).to.equal('Completed');
    expect(job.memoryIds).to.deep.equal(['m0', 'm1']);
    expect(job.acceptedAt).to.equal(10);
    expect(job.updatedAt).to.equal(40);
  });

  it('never moves a stage backwards when reports arrive out of order', () => {
    let job = applyJobStatus(null, s({ stage: 'dual-writer' }), 5);
    job = applyJobStatus(job, s({ stage: 'temporal-resolver' }), 6);
    job = applyJobStatus(job, s({ state: 'Accepted', stage: 'edge' }), 1);
    expect(job.stage).to.equal('dual-writer');
    expect(job.state).to.equal('Processing');
    expect(job.acceptedAt).to.equal(1);
  });

  it('keeps Failed final, with its reason', () => {
    let job = applyJobStatus(null, s({ state: 'Failed', stage: 'enricher', errorCode: 'X', reason: 'broken' }), 5);
    job = applyJobStatus(job, s({ state: 'Completed', partIndex: 0, partCount: 1, memoryId: 'm' }), 6);
    expect(job.state).to.equal('Failed');
    expect(job.reason).to.equal('broken');
  });

  it('keeps Completed final: a later Failed (a replay meeting an update of a memory forgotten since) changes nothing', () => {
    let job = applyJobStatus(null, s({ state: 'Completed', stage: 'centroid-calibrator', partIndex: 0, partCount: 1, memoryId: 'm' }), 5);
    job = applyJobStatus(job, s({ state: 'Failed', stage: 'dual-writer', errorCode: 'MEMORY.FORGOTTEN', reason: 'deleted' }), 9);
    expect(job.state).to.equal('Completed');
    expect(job.errorCode).to.equal(null);
    expect(job.memoryIds).to.deep.equal(['m']);
  });

  it('is idempotent under redelivery', () => {
    const done = s({ state: 'Completed', stage: 'centroid-calibrator', partIndex: 0, partCount: 1, memoryId: 'm' });
    const once = applyJobStatus(null, done, 5);
    const twice = applyJobStatus(once, done, 5);
    expect(twice).to.deep.equal(once);
    expect(twice.state).to.equal('Completed');
  });

  it('merges a batch of one job\'s reports as one report at a time would', () => {
    const reports = [
      { status: s({ state: 'Accepted', stage: 'edge' }), at: 10 },
      { status: s({ stage: 'enricher' }), at: 20 },
      { status: s({ state: 'Completed', stage: 'centroid-calibrator', partIndex: 0, partCount: 1, memoryId: 'm0' }), at: 30 },
    ];
    const oneByOne = reports.reduce<ReturnType<typeof applyJobStatus> | null>((job, { status, at }) => applyJobStatus(job, status, at), null);
    expect(applyJobStatuses(null, reports)).to.deep.equal(oneByOne);
    expect(applyJobStatuses(oneByOne, reports)).to.deep.equal(oneByOne, 'a redelivered batch changes nothing');
    expect(() => applyJobStatuses(null, [])).to.throw();
  });
});

