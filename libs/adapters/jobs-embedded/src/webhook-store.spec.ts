import { expect } from 'chai';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWebhookStoreContract, tempDirStoreFactory } from '@memory/testing';
import { createEmbeddedWebhookStore } from './index.js';

describeWebhookStoreContract('jobs-embedded', tempDirStoreFactory('webhooks-embedded', (dir) => createEmbeddedWebhookStore({ dir })));

describe('jobs-embedded webhook store', () => {
  it('keeps no byte of a forgotten job\'s deliveries in its file once closed, and keeps the others', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'forgotten-deliveries-embedded-'));
    const store = createEmbeddedWebhookStore({ dir });
    const scope = { tenantId: 't', endUserId: 'u' };
    const enqueue = (id: string, jobId: string) =>
      store.enqueue({
        id, ...scope, jobId, webhookId: 'w', eventType: 'job.completed', body: JSON.stringify({ type: 'job.completed', data: { jobId } }),
        state: 'pending', attempts: 0, nextAttemptAt: 1, lastStatus: null, lastError: null, retryUntil: 2, createdAt: 1, updatedAt: 1,
      });
    // Enough deliveries that their pages are freed, not rewritten in place.
    for (let i = 0; i < 200; i++) await enqueue(`d${i}`, 'doc_job_1_zebracrossing');
    await enqueue('kept', 'doc_job_2_keptjob');
    expect(await store.forgetJobs(scope, ['doc_job_1_zebracrossing'])).to.equal(200);
    await store.close();
    const bytes = await readFile(join(dir, 'data.mdb'));
    expect(bytes.includes(Buffer.from('doc_job_2_keptjob')), 'the bytes read hold the deliveries kept').to.equal(true);
    expect(bytes.includes(Buffer.from('zebracrossing'))).to.equal(false);
    await rm(dir, { recursive: true, force: true });
  });
});
