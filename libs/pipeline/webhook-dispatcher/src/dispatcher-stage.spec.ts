import { expect } from 'chai';
import type { ForgetRequested } from '@memory/contracts';
import type { JobStore, WebhookStore } from '@memory/ports';
import type { Incoming } from '@memory/pipeline-runtime';
import { webhookDispatcherStage } from './dispatcher-stage.js';

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
    await webhookDispatcherStage.process(batch, { jobs, webhooks, schedule: { windowMs: 1_000 } });
    const scope = { tenantId: 'acme', endUserId: 'ada' };
    expect(erased).to.deep.equal([['jobs', scope, 1_700_000_000_000], ['deliveries', scope, 1_700_000_000_000]]);
  });
});
