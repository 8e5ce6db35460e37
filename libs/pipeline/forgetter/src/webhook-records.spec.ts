import { expect } from 'chai';
import type { ForgetRequested } from '@memory/contracts';
import type { Scope } from '@memory/ports';
import { forget, type ForgetDeps } from './forget.js';
import { webhookRecordsOf } from './webhook-records.js';

const scope: Scope = { tenantId: 'acme', endUserId: 'ada' };
const job = 'doc_job_1700000000000_ada';

/** Stores that hold `memoryIds` and nothing else of the end user, and record what the webhook side is asked to remove. */
function storesHolding(memoryIds: string[]) {
  const asked: { projection: string[][]; deliveries: string[][] } = { projection: [], deliveries: [] };
  const webhooks = webhookRecordsOf(
    {
      forgetUser: async () => 0,
      forgetJobs: async (_scope: Scope, jobIds: string[]) => (asked.deliveries.push(jobIds), jobIds.length * 2),
    },
    { forget: async (_tenantId: string, jobIds: string[]) => (asked.projection.push(jobIds), jobIds.length) },
  );
  const vectors = { ids: async () => memoryIds, count: async () => memoryIds.length, get: async () => [], getWithoutVectors: async () => [], delete: async () => 0 };
  const deps = {
    vectors,
    visualVectors: { ...vectors, ids: async () => [] },
    graph: { neighbours: async () => [], deleteNodes: async () => 0, degrees: async () => new Map(), getNodes: async () => [] },
    centroids: { get: async () => null, members: async () => new Map(), reset: async () => undefined, replace: async () => undefined },
    blobs: { deletePrefix: async () => 1 },
    jobs: { get: async () => ({ state: 'Completed' }), forget: async (_tenantId: string, jobIds: string[]) => jobIds.length },
    keys: { forget: async () => 1, erase: async () => 0, scrub: async () => undefined },
    webhooks,
  } as unknown as ForgetDeps;
  return { deps, asked };
}

const request = (target: Partial<ForgetRequested>): ForgetRequested => ({
  jobId: 'del_job_1700000000009_ada', ...scope, target: 'job', memoryId: null, targetJobId: job, acceptedAt: 1_700_000_000_009, keysDestroyed: 1, ...target,
});

describe('forgetter: webhook records', () => {
  it('removes a job forgotten whole from the delivery log and the dispatcher\'s projection, and counts its deliveries', async () => {
    const { deps, asked } = storesHolding([]);
    const receipt = await forget(request({}), deps);
    expect(asked.projection.flat()).to.deep.equal([job]);
    expect(asked.deliveries.flat()).to.deep.equal([job]);
    expect(receipt.removed.find((removal) => removal.store === 'webhooks')).to.deep.equal({ store: 'webhooks', what: 'webhook deliveries about their jobs', count: 2 });
  });

  it('keeps them while the job keeps a memory (a page of a PDF forgotten alone)', async () => {
    const { deps, asked } = storesHolding([`mem_${job}_1`]);
    const receipt = await forget(request({ target: 'memory', memoryId: `mem_${job}_0`, targetJobId: null }), deps);
    expect(asked).to.deep.equal({ projection: [], deliveries: [] });
    expect(receipt.removed.find((removal) => removal.store === 'webhooks')?.count).to.equal(0);
  });
});
