import { expect } from 'chai';
import { jobStatusOf, type ForgetRequested, type JobStatus } from '@memory/contracts';
import type { JobRecord, JobStore, Scope, WebhookDelivery, WebhookStore } from '@memory/ports';
import type { Incoming } from '@memory/pipeline-runtime';
import { webhookDispatcherStage } from './dispatcher-stage.js';

const noneForgotten = { forgotten: async () => new Set<string>() };

describe('webhook dispatcher stage', () => {
  it('erases what it kept of an end user when the tenant has no endpoint any more', async () => {
    const erased: unknown[] = [];
    const jobs = { erase: async (scope: unknown, before: number) => void erased.push(['jobs', scope, before]) } as unknown as JobStore;
    const webhooks = {
      listEndpoints: async () => [],
      forgetUser: async (scope: unknown, before: number) => void erased.push(['deliveries', scope, before]),
    } as unknown as WebhookStore;
    const erasure: ForgetRequested = { jobId: 'del_job_1700000000000_ada', tenantId: 'acme', endUserId: 'ada', target: 'user', memoryId: null, targetJobId: null, acceptedAt: 1_700_000_000_000, keysDestroyed: 3 };
    const oneMemory: ForgetRequested = { ...erasure, jobId: 'del_job_1700000000001_ada', target: 'memory', memoryId: 'mem_job_1_ada_0', acceptedAt: 1_700_000_000_001 };
    const batch = [erasure, oneMemory].map((value, offset) => ({ event: 'forgetRequested', value, topic: 't', partition: 0, offset, key: 'acme/ada', timestamp: value.acceptedAt })) as Array<Incoming<'jobStatus' | 'forgetRequested'>>;
    await webhookDispatcherStage.process(batch, { jobs, webhooks, keys: noneForgotten, schedule: { windowMs: 1_000 } });
    const scope = { tenantId: 'acme', endUserId: 'ada' };
    expect(erased).to.deep.equal([['jobs', scope, 1_700_000_000_000], ['deliveries', scope, 1_700_000_000_000]]);
  });

  it('erases before the erasure\'s accept time (its id\'s), not its log time, so its own user.erased stays', async () => {
    const erased: unknown[] = [];
    let record: JobRecord | null = null;
    const jobs = {
      update: async (_tenantId: string, _jobId: string, change: (current: JobRecord | null) => JobRecord) => (record = change(record)),
      erase: async (_scope: unknown, before: number) => void erased.push(['jobs', before]),
    } as unknown as JobStore;
    const enqueued: string[] = [];
    const webhooks = {
      listEndpoints: async (tenantId: string) => [{ id: 'wh_1', tenantId, url: 'https://example.com/hook', events: ['user.erased'], secrets: [], createdAt: 0 }],
      enqueue: async (delivery: WebhookDelivery) => void enqueued.push(delivery.eventType),
      forgetUser: async (_scope: unknown, before: number) => void erased.push(['deliveries', before]),
    } as unknown as WebhookStore;
    const acceptedAt = 1_700_000_000_000;
    const erasure: ForgetRequested = { jobId: `del_job_${acceptedAt}_ada`, tenantId: 'acme', endUserId: 'ada', target: 'user', memoryId: null, targetJobId: null, acceptedAt, keysDestroyed: 3 };
    const receipt = { memories: 0, removed: [], log: '' };
    const batch = [
      { event: 'forgetRequested', value: erasure, timestamp: acceptedAt + 5 },
      { event: 'jobStatus', value: jobStatusOf(erasure, 'Completed', { stage: 'forgetter', receipt }), timestamp: acceptedAt + 9 },
    ].map((item, offset) => ({ ...item, topic: 't', partition: 0, offset, key: 'acme/ada' })) as Array<Incoming<'jobStatus' | 'forgetRequested'>>;
    await webhookDispatcherStage.process(batch, { jobs, webhooks, keys: noneForgotten, schedule: { windowMs: 1_000 } });
    expect(enqueued).to.deep.equal(['user.erased']);
    expect(erased).to.deep.equal([['jobs', acceptedAt], ['deliveries', acceptedAt]]);
  });

  it('takes back the record of a job forgotten meanwhile (its key still cached) and announces it to no one', async () => {
    const records = new Map<string, JobRecord>();
    const jobs = {
      update: async (_tenantId: string, jobId: string, change: (current: JobRecord | null) => JobRecord) => {
        const next = change(records.get(jobId) ?? null);
        records.set(jobId, next);
        return next;
      },
      forget: async (_tenantId: string, jobIds: string[]) => jobIds.filter((jobId) => records.delete(jobId)).length,
    } as unknown as JobStore;
    const enqueued: WebhookDelivery[] = [];
    const forgottenDeliveries: Array<[Scope, string[]]> = [];
    const webhooks = {
      listEndpoints: async (tenantId: string) => [{ id: 'wh_1', tenantId, url: 'https://example.com/hook', events: ['job.completed'], secrets: [], createdAt: 0 }],
      enqueue: async (delivery: WebhookDelivery) => void enqueued.push(delivery),
      forgetJobs: async (scope: Scope, jobIds: string[]) => void forgottenDeliveries.push([scope, jobIds]),
    } as unknown as WebhookStore;
    const gone = 'job_1700000000000_ada';
    const kept = 'job_1700000000001_ada';
    const keys = { forgotten: async (_scope: Scope, keyIds: string[]) => new Set(keyIds.filter((id) => id === gone)) };
    const completed = (jobId: string): JobStatus => jobStatusOf({ jobId, tenantId: 'acme', endUserId: 'ada' }, 'Completed', { stage: 'centroid-calibrator', partIndex: 0, partCount: 1, memoryId: `mem_${jobId}_0` });
    const batch = [completed(gone), completed(kept)].map((value, offset) => ({ event: 'jobStatus', value, topic: 't', partition: 0, offset, key: 'acme/ada', timestamp: 1_700_000_001_000 })) as Array<Incoming<'jobStatus' | 'forgetRequested'>>;
    await webhookDispatcherStage.process(batch, { jobs, webhooks, keys, schedule: { windowMs: 1_000 } });
    expect([...records.keys()]).to.deep.equal([kept]);
    expect(enqueued.map((delivery) => [delivery.jobId, delivery.eventType])).to.deep.equal([[kept, 'job.completed']]);
    expect(forgottenDeliveries, 'what an earlier delivery of its records enqueued').to.deep.equal([[{ tenantId: 'acme', endUserId: 'ada' }, [gone]]]);
  });

  it('takes back the deliveries it enqueued of a job forgotten between its check and the enqueue', async () => {
    const records = new Map<string, JobRecord>();
    const jobs = {
      update: async (_tenantId: string, jobId: string, change: (current: JobRecord | null) => JobRecord) => (records.set(jobId, change(records.get(jobId) ?? null)), records.get(jobId)!),
      forget: async (_tenantId: string, jobIds: string[]) => jobIds.filter((jobId) => records.delete(jobId)).length,
    } as unknown as JobStore;
    const gone = 'job_1700000000000_ada';
    // The edge destroys the job's key (its tombstone) while the dispatcher enqueues; the forgetter then removes the
    // deliveries it finds, none yet.
    let tombstoned = false;
    const deliveries = new Map<string, WebhookDelivery>();
    const webhooks = {
      listEndpoints: async (tenantId: string) => [{ id: 'wh_1', tenantId, url: 'https://example.com/hook', events: ['job.completed'], secrets: [], createdAt: 0 }],
      enqueue: async (delivery: WebhookDelivery) => {
        tombstoned = true;
        deliveries.set(delivery.id, delivery);
      },
      forgetJobs: async (_scope: Scope, jobIds: string[]) => {
        for (const [id, delivery] of deliveries) if (jobIds.includes(delivery.jobId!)) deliveries.delete(id);
      },
    } as unknown as WebhookStore;
    const keys = { forgotten: async (_scope: Scope, keyIds: string[]) => new Set(tombstoned ? keyIds.filter((id) => id === gone) : []) };
    const completed = jobStatusOf({ jobId: gone, tenantId: 'acme', endUserId: 'ada' }, 'Completed', { stage: 'centroid-calibrator', partIndex: 0, partCount: 1, memoryId: `mem_${gone}_0` });
    const batch = [{ event: 'jobStatus', value: completed, topic: 't', partition: 0, offset: 0, key: 'acme/ada', timestamp: 1_700_000_001_000 }] as Array<Incoming<'jobStatus' | 'forgetRequested'>>;
    await webhookDispatcherStage.process(batch, { jobs, webhooks, keys, schedule: { windowMs: 1_000 } });
    expect([...deliveries.keys()], 'no delivery about the forgotten job').to.deep.equal([]);
    expect([...records.keys()], 'nor its projection').to.deep.equal([]);
  });

  it('takes back, when its report no longer opens, the projection and deliveries of a job an earlier delivery wrote before stopping', async () => {
    const scope = { tenantId: 'acme', endUserId: 'ada' };
    const gone = 'job_1700000000000_ada';
    const settledElsewhere = 'job_1700000000001_ada';
    const never = 'job_1700000000002_ada';
    const records = new Map<string, JobRecord>([
      [gone, { jobId: gone, ...scope } as JobRecord],
      [settledElsewhere, { jobId: settledElsewhere, ...scope } as JobRecord],
    ]);
    const jobs = {
      get: async (_tenantId: string, jobId: string) => records.get(jobId) ?? null,
      forget: async (_tenantId: string, jobIds: string[]) => jobIds.filter((jobId) => records.delete(jobId)).length,
    } as unknown as JobStore;
    const forgottenDeliveries: Array<[Scope, string[]]> = [];
    const webhooks = { forgetJobs: async (at: Scope, jobIds: string[]) => void forgottenDeliveries.push([at, jobIds]) } as unknown as WebhookStore;
    // The update of a forgotten memory no longer opens either, but is no forgotten job: its record stays.
    const keys = { forgotten: async (_scope: Scope, keyIds: string[]) => new Set(keyIds.filter((id) => id === gone)) };
    const forgottenRecords = [gone, settledElsewhere, never, gone].map((jobId) => ({ keyId: jobId, jobId }));
    await webhookDispatcherStage.takeBackForgotten!(scope, [...forgottenRecords, { keyId: 'mem_x_0', jobId: null }], { jobs, webhooks, keys, schedule: { windowMs: 1_000 } });
    expect([...records.keys()]).to.deep.equal([settledElsewhere]);
    expect(forgottenDeliveries).to.deep.equal([[scope, [gone]]]);
  });
});
