import { expect } from 'chai';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { memoryIdOf } from '@memory/contracts';
import { openEmbeddedVectorStores } from '@memory/vectors-embedded';
import { caller, ServiceProcess, TEST_KEYS, waitForDrain } from '@memory/testing';
import { runCli } from './run-cli.js';

const MEMORYD = fileURLToPath(new URL('../../memoryd/src/main.ts', import.meta.url));

describe('replay tooling on the embedded log', function () {
  this.timeout(180_000);
  const service = new ServiceProcess({ entry: MEMORYD });
  after(async () => {
    await service.stop();
    service.cleanup();
  });

  it('rebuild brings back a memory lost from the vector store, from the log', async () => {
    await service.start();
    const api = caller(service, TEST_KEYS.acme, 'erin');
    const ack = await api.post('/v1/memory', { source: { type: 'text', content: 'I keep the spare house key under the blue flower pot' } });
    await waitForDrain(service);
    await service.stop();

    // The store loses the memory (a projection can be dropped); the log still has it.
    const memoryId = memoryIdOf(ack.body.jobId, 0);
    const scope = { tenantId: 'acme', endUserId: 'erin' };
    const stores = openEmbeddedVectorStores({ dir: join(service.dataDir, 'vectors') });
    expect(await stores.vectors.delete(scope, [memoryId])).to.equal(1);
    await stores.close();

    const env = { MEMORY_DATA_DIR: service.dataDir };
    expect((await runCli(['lag'], env)).output).to.match(/dual-writer\s+0 records behind/);
    const rebuilt = await runCli(['rebuild', 'vectors'], env);
    expect(rebuilt.code, rebuilt.output).to.equal(0);
    expect(rebuilt.output).to.include('dual-writer on memory.enriched: moved to earliest');
    expect((await runCli(['lag'], env)).output).to.match(/dual-writer\s+1 records behind/);

    await service.start();
    await waitForDrain(service);
    const found = await api.post('/v1/search', { query: 'where is the spare key?' });
    expect(found.body.data.map((m: { id: string }) => m.id)).to.include(memoryId);
    await service.stop();
  });

  it('reset-group refuses what it cannot do, with what to do instead', async () => {
    const env = { MEMORY_DATA_DIR: service.dataDir };
    const unknown = await runCli(['reset-group', 'some-group', 'earliest'], env);
    expect(unknown.code).to.equal(1);
    expect(unknown.output).to.include('"some-group" is not a stage; name its topic with --topic');
    const badPosition = await runCli(['reset-group', 'enricher', 'yesterday-ish'], env);
    expect(badPosition.output).to.include('is not earliest, latest, an offset or an ISO 8601 time');
    const usage = await runCli([], env);
    expect(usage.code).to.equal(2);
    expect(usage.output).to.include('export-to-kafka');
  });
});
