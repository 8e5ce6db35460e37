import { expect } from 'chai';
import { memoryIdOf } from '@memory/contracts';
import { KEYS, caller, memorydProcess, waitForDrain, waitForJob } from './harness.js';
import { EVENTS } from '@memory/contracts';
import { resetAllGroupsToEarliest, snapshotStores, topicSize } from './store-snapshot.js';

interface UserSnapshot {
  count: number;
  memories: Array<{ vector: number[] }>;
  centroid: { sum: number[]; memoryCount: number };
  centroidMembers: Record<string, { version: number } | null>;
}

const scopes = [{ tenantId: 'acme', endUserId: 'alice' }, { tenantId: 'acme', endUserId: 'bob' }];

describe('durability and replay (embedded default)', function () {
  this.timeout(300_000);

  it('replaying the whole log leaves every store unchanged', async () => {
    const service = memorydProcess();
    try {
      await service.start();
      const jobIds: string[] = [];
      const texts = [
        'I adopted a beagle named Max last Saturday',
        'My sister Emma is getting married in Lisbon next month',
        'I hate waiting at the dentist, my appointment is tomorrow at 9am',
        'We watched the comedy "Superbad" with Jake two weeks ago',
        'I am training for the Boston marathon in April 2024',
      ];
      for (const [i, content] of texts.entries()) {
        const user = i % 2 === 0 ? 'alice' : 'bob';
        const ack = await caller(service, KEYS.acme, user).post('/v1/memory', { source: { type: 'text', content } });
        expect(ack.status).to.equal(202);
        jobIds.push(ack.body.jobId);
      }
      await waitForDrain(service);
      // A correction: its version, and the centroid member it swaps, must come out of the replay as they went in.
      const alice = caller(service, KEYS.acme, 'alice');
      const corrected = await alice.patch(`/v1/memories/${memoryIdOf(jobIds[2]!, 0)}`, { content: 'I love the dentist, my appointment is on Friday at 10am' });
      expect(corrected.status).to.equal(202);
      expect((await waitForJob(alice, corrected.body.jobId, 30_000)).status).to.equal('Completed');
      jobIds.push(corrected.body.jobId);
      await service.stop();
      const before = await snapshotStores(service.dataDir, scopes, jobIds);
      const aliceBefore = before.users['acme/alice'] as UserSnapshot;
      expect(aliceBefore.count).to.equal(3);
      // The corrected member was swapped, not added: the centroid is the sum of the vectors the store holds now.
      expect(aliceBefore.centroidMembers[memoryIdOf(jobIds[2]!, 0)]?.version).to.equal(2);
      expect(aliceBefore.centroid.memoryCount).to.equal(3);
      const sum = aliceBefore.memories.reduce((acc, m) => acc.map((x, i) => x + m.vector[i]!), new Array<number>(aliceBefore.centroid.sum.length).fill(0));
      aliceBefore.centroid.sum.forEach((x, i) => expect(x).to.be.closeTo(sum[i]!, 1e-4));

      const resolvedBefore = await topicSize(service.dataDir, EVENTS.resolved.topic);
      expect(resolvedBefore).to.equal(texts.length + 1);

      await resetAllGroupsToEarliest(service.dataDir);
      await service.start();
      await waitForDrain(service);
      await service.stop();
      // The replay really ran: every request was resolved (and so enriched and written) a second time.
      expect(await topicSize(service.dataDir, EVENTS.resolved.topic)).to.equal(2 * (texts.length + 1));
      const after = await snapshotStores(service.dataDir, scopes, jobIds);
      expect(after).to.deep.equal(before);
    } finally {
      await service.stop();
      service.cleanup();
    }
  });

  it('after kill -9 mid-ingest, every accepted job completes and each memory exists exactly once', async () => {
    const service = memorydProcess();
    try {
      await service.start();
      const api = caller(service, KEYS.acme, 'alice');
      const accepted: string[] = [];
      let next = 0;
      let killed = false;
      const total = 500;
      const worker = async () => {
        while (next < total && !killed) {
          const n = next++;
          try {
            const ack = await api.post('/v1/memory', { source: { type: 'text', content: `Note ${n}: I paid invoice INV-${10_000 + n} for the garden tools on ${n % 28 + 1} March` } });
            if (ack.status === 202) accepted.push(ack.body.jobId);
          } catch {
            return; // the process is gone
          }
          if (accepted.length >= 200 && !killed) {
            killed = true;
            await service.kill();
          }
        }
      };
      await Promise.all(Array.from({ length: 16 }, worker));
      expect(killed).to.equal(true);
      expect(accepted.length).to.be.at.least(200);

      await service.start();
      await waitForDrain(service);
      for (const jobId of accepted) {
        const job = await waitForJob(api, jobId, 30_000);
        expect(job.status, jobId).to.equal('Completed');
        expect(job.memoryIds).to.deep.equal([memoryIdOf(jobId, 0)]);
      }
      const sample = await api.post('/v1/search', { query: 'invoice for garden tools', options: { limit: 50 } });
      const ids = sample.body.data.map((m: { id: string }) => m.id);
      expect(new Set(ids).size).to.equal(ids.length);
      await service.stop();

      const { users } = await snapshotStores(service.dataDir, [scopes[0]!], []);
      const alice = users['acme/alice'] as { ids: string[]; count: number };
      expect(new Set(alice.ids).size).to.equal(alice.ids.length);
      expect(alice.count).to.equal(alice.ids.length);
      for (const jobId of accepted) expect(alice.ids).to.include(memoryIdOf(jobId, 0));
      // Requests the kill cut off may have been appended without their 202 reaching us; nothing beyond the attempts.
      expect(alice.ids.length).to.be.within(accepted.length, total);
    } finally {
      await service.stop();
      service.cleanup();
    }
  });
});
