import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { openInfrastructure, readServiceConfig } from '@memory/composition';
import { EVENTS } from '@memory/contracts';
import { createLogger } from '@memory/platform';
import { caller, describeWithEngine, localEngines, ServiceProcess, TEST_KEYS, waitForDrain, waitForJob } from '@memory/testing';
import { DistributedProcesses, dropTestNamespace } from './distributed-processes.js';
import { runCli } from './run-cli.js';

const MEMORYD = fileURLToPath(new URL('../../memoryd/src/main.ts', import.meta.url));
const engines = localEngines();

describeWithEngine('moving an embedded deployment to the distributed mode', [engines.kafka, engines.registry, engines.elasticsearch, engines.minio], function () {
  this.timeout(400_000);

  it('export-to-kafka carries the whole history over; the distributed stores are rebuilt from it', async () => {
    const embedded = new ServiceProcess({ entry: MEMORYD });
    const distributed = new DistributedProcesses();
    try {
      await embedded.start();
      const api = caller(embedded, TEST_KEYS.acme, 'dana');
      const texts = ['My daughter Lily starts ballet classes next Tuesday', 'I renewed my passport at the embassy yesterday', 'We watched the thriller "Gone Girl" on Friday'];
      const jobIds: string[] = [];
      for (const content of texts) jobIds.push((await api.post('/v1/memory', { source: { type: 'text', content } })).body.jobId);
      const secret = (await api.post('/v1/memory', { source: { type: 'text', content: 'The okapiwhistle is under the porch' } })).body.jobId as string;
      await waitForDrain(embedded);
      const forgotten = await api.delete(`/v1/memories/mem_${secret}_0`);
      expect((await waitForJob(api, forgotten.body.jobId)).status).to.equal('Completed');
      const before = await api.post('/v1/search', { query: 'ballet classes', options: { limit: 3 } });
      await embedded.stop();

      const exported = await runCli(['export-to-kafka'], { MEMORY_DATA_DIR: embedded.dataDir, MEMORY_NAMESPACE: distributed.namespace });
      expect(exported.code, exported.output).to.equal(0);
      expect(exported.output).to.include('memory.ingest.requested: 4 records copied');
      expect(exported.output).to.match(/data keys: \d+ copied/);
      expect(exported.output).to.include('group dual-writer on memory.enriched: from the earliest record');

      await distributed.start();
      await waitForDrain(distributed, 120_000);
      const moved = caller(distributed, TEST_KEYS.acme, 'dana');
      for (const jobId of jobIds) expect((await waitForJob(moved, jobId, 60_000)).status).to.equal('Completed');
      const after = await moved.post('/v1/search', { query: 'ballet classes', options: { limit: 3 } });
      expect(after.body.data.map((m: { id: string }) => m.id)).to.deep.equal(before.body.data.map((m: { id: string }) => m.id));
      expect(after.body.data[0].payload.content).to.equal(before.body.data[0].payload.content);
      // What was forgotten before the move stays forgotten after it: its records came over sealed, its key did not.
      expect((await moved.post('/v1/search', { query: 'okapiwhistle porch', options: { limit: 10 } })).body.data.map((m: { id: string }) => m.id)).to.not.include(`mem_${secret}_0`);
      expect((await moved.get(`/v1/jobs/${forgotten.body.jobId}`)).body.status).to.equal('Completed');
      // The resolver and enricher kept their positions: their outputs came over with the log and nothing was redone.
      const lag = await runCli(['lag', '--distributed'], { MEMORY_NAMESPACE: distributed.namespace, MEMORY_DATA_DIR: distributed.dataDir });
      expect(lag.output).to.match(/temporal-resolver\s+0 records behind/);
      const infra = openInfrastructure(readServiceConfig({ ...process.env, MEMORY_NAMESPACE: distributed.namespace }, 'distributed'), createLogger({ test: 'export' }, 'error'));
      try {
        const { log } = await infra.eventBus();
        const sizeOf = async (topic: string) => (await log.lag('size-probe', topic)).reduce((sum, p) => sum + p.end, 0);
        expect(await sizeOf(EVENTS.resolved.topic)).to.equal(texts.length + 1);
        expect(await sizeOf(EVENTS.enriched.topic)).to.equal(texts.length + 1);
        for (const { topic } of Object.values(EVENTS)) {
          for (let partition = 0; partition < (await log.partitionsOf(topic)); partition++) {
            for (const record of await log.read(topic, partition, 0, 10_000)) expect(record.value.includes(Buffer.from('okapiwhistle')), topic).to.equal(false);
          }
        }
      } finally {
        await infra.close();
      }
    } finally {
      await embedded.stop();
      await distributed.stop();
      embedded.cleanup();
      distributed.cleanup();
      await dropTestNamespace(distributed.namespace);
    }
  });
});
