import { expect } from 'chai';
import type { JobRecord } from '@memory/ports';
import { deliveryIdOf, eventsOfJob, webhookBody } from './events.js';

const job = (extra: Partial<JobRecord>): JobRecord => ({
  jobId: 'job_1_u', tenantId: 't', endUserId: 'u', state: 'Completed', stage: 'centroid-calibrator', partCount: 1, memoryIds: ['mem_job_1_u_0'],
  errorCode: null, reason: null, acceptedAt: 1, updatedAt: 2, ...extra,
});
const types = (record: JobRecord) => eventsOfJob(record).map((event) => event.type);

describe('webhook events of a job', () => {
  it('announces nothing until a job has ended', () => {
    expect(eventsOfJob(job({ state: 'Processing' }))).to.deep.equal([]);
    expect(eventsOfJob(job({ state: 'Accepted' }))).to.deep.equal([]);
  });

  it('announces job.completed or job.failed (with the error) for every kind of job', () => {
    for (const jobId of ['job_1_u', 'img_job_1_u', 'doc_job_1_u']) expect(types(job({ jobId }))).to.deep.equal(['job.completed']);
    const [failed] = eventsOfJob(job({ jobId: 'doc_job_1_u', state: 'Failed', errorCode: 'DOCUMENT.CORRUPT', reason: 'not a PDF', memoryIds: [] }));
    expect(failed).to.deep.equal({ type: 'job.failed', data: { jobId: 'doc_job_1_u', status: 'Failed', endUserId: 'u', memoryIds: [], error: { code: 'DOCUMENT.CORRUPT', reason: 'not a PDF' } } });
    expect(types(job({ jobId: 'upd_job_1_u', state: 'Failed', errorCode: 'MEMORY.FORGOTTEN' }))).to.deep.equal(['job.failed']);
  });

  it('adds memory.updated for an update, memory.deleted or user.erased for a forgetting job once its target is known', () => {
    expect(types(job({ jobId: 'upd_job_1_u' }))).to.deep.equal(['job.completed', 'memory.updated']);
    const forget = { jobId: 'del_job_1_u', memoryIds: [] };
    expect(types(job(forget))).to.deep.equal(['job.completed']);
    const memory = eventsOfJob(job({ ...forget, forget: { target: 'memory', memoryId: 'mem_job_0_u_0', targetJobId: null } }));
    expect(memory[1]).to.deep.equal({ type: 'memory.deleted', data: { jobId: 'del_job_1_u', status: 'Completed', endUserId: 'u', memoryIds: ['mem_job_0_u_0'] } });
    const ofJob = eventsOfJob(job({ ...forget, forget: { target: 'job', memoryId: null, targetJobId: 'doc_job_0_u' } }));
    expect(ofJob[1]!.data).to.deep.include({ targetJobId: 'doc_job_0_u', memoryIds: [] });
    expect(types(job({ ...forget, forget: { target: 'user', memoryId: null, targetJobId: null } }))).to.deep.equal(['job.completed', 'user.erased']);
  });

  it('writes the body as {type, timestamp, data} and derives one delivery id per endpoint, job and event', () => {
    const [event] = eventsOfJob(job({}));
    expect(JSON.parse(webhookBody(event!, Date.UTC(2026, 10, 25, 12)))).to.deep.equal({ type: 'job.completed', timestamp: '2026-11-25T12:00:00.000Z', data: event!.data });
    expect(deliveryIdOf('wh_1', 'job_1_u', 'job.completed')).to.equal(deliveryIdOf('wh_1', 'job_1_u', 'job.completed')).and.match(/^msg_[A-Za-z0-9_-]{27}$/);
    const others = [deliveryIdOf('wh_2', 'job_1_u', 'job.completed'), deliveryIdOf('wh_1', 'job_2_u', 'job.completed'), deliveryIdOf('wh_1', 'job_1_u', 'job.failed')];
    expect(new Set([deliveryIdOf('wh_1', 'job_1_u', 'job.completed'), ...others]).size).to.equal(4);
  });
});
