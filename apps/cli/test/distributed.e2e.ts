import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EVENTS, memoryIdOf } from '@memory/contracts';
import { indexPrefixes, openInfrastructure, readServiceConfig } from '@memory/composition';
import { createLogger, processTree, threadNiceness } from '@memory/platform';
import { openElasticsearchStores } from '@memory/stores-elasticsearch';
import { caller, describeDocumentScenarios, describeForgetScenarios, describeIdempotencyScenarios, describeImageScenarios, describeMcpScenarios, describeMemoryApiScenarios, describeMemoryReadScenarios, describeSdkScenarios, describeTenancyScenarios, describeUpdateScenarios, describeWebhookScenarios, describeWithEngine, localEngines, mcpFileRoot, ServiceProcess, TEST_DOCUMENT_MAX_BYTES, TEST_KEYS, waitForDrain, waitForJob, WEBHOOK_TEST_ENV } from '@memory/testing';
import { DistributedProcesses, dropTestNamespace } from './distributed-processes.js';

const engines = localEngines();
const mcpFiles = await mcpFileRoot();
const needed = [engines.kafka, engines.registry, engines.elasticsearch, engines.minio];
const elasticsearchUrl = engines.elasticsearch.endpoint;

/** `npm run start:distributed` (the cli's launcher) on a namespace of its own. */
function launcher(env: Record<string, string> = {}) {
  const namespace = `e2e-${randomBytes(4).toString('hex')}`;
  const process = new ServiceProcess({
    entry: fileURLToPath(new URL('../start-distributed.mjs', import.meta.url)),
    readyLine: /Memory service \(distributed\) ready on (http:\/\/\S+)/,
    startTimeoutMs: 180_000,
    // Free ports for every process: launchers of several suites (and other runs on the machine) overlap.
    env: { MEMORY_NAMESPACE: namespace, MEMORY_SEARCH_PORT: '0', MEMORY_STAGE_PORT_BASE: '0', MEMORY_MAX_DOCUMENT_BYTES: String(TEST_DOCUMENT_MAX_BYTES), ...env },
  });
  return {
    get url() {
      return process.url;
    },
    get pid() {
      return process.pid;
    },
    start: () => process.start(),
    // The same namespace again: Kafka topics, Elasticsearch indices (idempotency keys included) and blobs stay.
    restart: async () => {
      await process.stop();
      await process.start();
    },
    stop: async () => {
      await process.stop();
      process.cleanup();
      await dropTestNamespace(namespace);
    },
    bytesAtRest: () => kafkaRecordBytes(namespace),
  };
}

/** Key and value of every record of every topic of the namespace, read from Kafka as any client would read them. */
async function kafkaRecordBytes(namespace: string): Promise<Buffer> {
  const infra = openInfrastructure(readServiceConfig({ ...process.env, MEMORY_NAMESPACE: namespace }, 'distributed'), createLogger({ app: 'e2e' }, 'warn'));
  try {
    const { log } = await infra.eventBus();
    const chunks: Buffer[] = [];
    for (const { topic } of Object.values(EVENTS)) {
      for (let partition = 0; partition < (await log.partitionsOf(topic)); partition++) {
        for (let offset = 0; ; ) {
          const records = await log.read(topic, partition, offset, 500);
          if (records.length === 0) break;
          for (const record of records) chunks.push(Buffer.from(record.key), record.value);
          offset = records[records.length - 1]!.offset + 1;
        }
      }
    }
    return Buffer.concat(chunks);
  } finally {
    await infra.close();
  }
}

describeWithEngine('distributed mode (Kafka, schema registry, Elasticsearch, MinIO)', needed, () => {
  // The same scenarios as the embedded service, through `npm run start:distributed`.
  describeMemoryApiScenarios('the API scenarios, through start-distributed', launcher());
  describeImageScenarios('image memories, through start-distributed (blobs in MinIO)', launcher());
  describeDocumentScenarios('PDF memories, through start-distributed (blobs in MinIO)', launcher());
  describeMemoryReadScenarios('reading memories back and metadata, through start-distributed (reads relayed by the edge)', launcher());
  describeForgetScenarios('forgetting, through start-distributed (keys in Elasticsearch, the log read raw from Kafka)', launcher());
  describeUpdateScenarios('correcting memories and their history, through start-distributed (PATCH at the edge, history relayed)', launcher());
  after(() => mcpFiles.remove());
  describeMcpScenarios('the MCP tools over stdio and over /mcp at the edge, through start-distributed', launcher({ MEMORY_MCP_FILE_ROOT: mcpFiles.dir }), {
    repoRoot: fileURLToPath(new URL('../../..', import.meta.url)),
    fileRoot: mcpFiles.dir,
  });

  describeIdempotencyScenarios('Idempotency-Key, through start-distributed (keys in Elasticsearch)', launcher());
  describeTenancyScenarios('tenancy under random operations, through start-distributed', launcher());
  describeWebhookScenarios('signed webhooks, through start-distributed (endpoints and the delivery queue in Elasticsearch, a webhook-dispatcher worker)', launcher(WEBHOOK_TEST_ENV));
  describeSdkScenarios('the TypeScript SDK (@memory/sdk), through start-distributed', launcher(WEBHOOK_TEST_ENV));

  describe('two edge processes', function () {
    this.timeout(300_000);
    const namespace = `e2e-${randomBytes(4).toString('hex')}`;
    const edges = [0, 1].map(() => new ServiceProcess({ entry: fileURLToPath(new URL('../../edge/src/main.ts', import.meta.url)), env: { MEMORY_NAMESPACE: namespace } }));
    before(async () => {
      for (const edge of edges) await edge.start();
    });
    after(async () => {
      for (const edge of edges) {
        await edge.stop();
        edge.cleanup();
      }
      await dropTestNamespace(namespace);
    });

    it('gives one job to duplicates sent to both edges at once, and either edge replays its answer', async () => {
      const send = (edgeIndex: number, key: string, content: string) =>
        fetch(`${edges[edgeIndex]!.url}/v1/memory`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TEST_KEYS.acme}`, 'x-end-user-id': 'ivan', 'content-type': 'application/json', 'idempotency-key': key },
          body: JSON.stringify({ source: { type: 'text', content } }),
        }).then(async (res) => ({ status: res.status, body: (await res.json()) as { jobId?: string; error?: { code: string } }, replayed: res.headers.get('idempotent-replayed') }));
      for (let round = 0; round < 5; round++) {
        const key = `two-edges-${namespace}-${round}`;
        const content = `Round ${round}: paid the window cleaner`;
        const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => send(i % 2, key, content)));
        const accepted = answers.filter((answer) => answer.status === 202);
        expect(new Set(accepted.map((answer) => answer.body.jobId)).size, JSON.stringify(answers)).to.equal(1);
        expect(accepted.filter((answer) => answer.replayed === null), 'one answer is not a replay').to.have.length(1);
        for (const answer of answers.filter((a) => a.status !== 202)) expect(answer.body.error?.code).to.equal('IDEMPOTENCY.IN_PROGRESS');
        for (const edgeIndex of [0, 1]) {
          const retry = await send(edgeIndex, key, content);
          expect(retry.status).to.equal(202);
          expect(retry.replayed).to.equal('true');
          expect(retry.body.jobId).to.equal(accepted[0]!.body.jobId);
        }
        expect((await send(round % 2, key, `${content} twice`)).body.error?.code).to.equal('IDEMPOTENCY.KEY_REUSED');
      }
    });

    it('never give one job id to two requests of one end user, however close together they come to the two edges', async () => {
      // A burst on each edge at once: each edge's clock issues a run of consecutive milliseconds, so the two runs overlap.
      const burst = await Promise.all(
        Array.from({ length: 160 }, (_, i) =>
          fetch(`${edges[i % 2]!.url}/v1/memory`, {
            method: 'POST',
            headers: { authorization: `Bearer ${TEST_KEYS.acme}`, 'x-end-user-id': 'judy', 'content-type': 'application/json' },
            body: JSON.stringify({ source: { type: 'text', content: `Burst note ${i}` } }),
          }).then(async (res) => ({ status: res.status, body: (await res.json()) as { jobId?: string } })),
        ),
      );
      expect(burst.map((answer) => answer.status)).to.deep.equal(burst.map(() => 202));
      const jobIds = burst.map((answer) => answer.body.jobId!);
      expect(new Set(jobIds).size, 'one job id a request').to.equal(jobIds.length);
      for (const jobId of jobIds) expect(jobId).to.match(/^job_\d{13}_judy$/);
    });
  });

  describe('MEMORY_PIPELINE_NICE', function () {
    this.timeout(240_000);
    const service = launcher({ MEMORY_PIPELINE_NICE: '7' });
    before(() => service.start());
    after(() => service.stop());

    it('runs every thread of the stage workers at that niceness, and the edge and the search app at the launcher\'s', () => {
      const own = threadNiceness(process.pid)[0]!;
      const apps = processTree(service.pid!).flatMap((pid) => {
        const app = /\/(edge|search|stage-worker)\.mjs/.exec(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))?.[1];
        return app ? [{ app, threads: threadNiceness(pid) }] : [];
      });
      expect(apps.map(({ app }) => app).sort()).to.deep.equal(['edge', 'search', 'stage-worker', 'stage-worker']);
      for (const { app, threads } of apps) {
        expect(new Set(threads), app).to.deep.equal(new Set([app === 'stage-worker' ? Math.min(19, own + 7) : own]));
      }
    });
  });

  describe('a consumer killed mid-stream', function () {
    this.timeout(400_000);
    const service = new DistributedProcesses();
    before(async () => {
      await service.start();
    });
    after(async () => {
      await service.stop();
      service.cleanup();
      await dropTestNamespace(service.namespace);
    });

    it('after kill -9 of the dual-writer and its restart, every accepted job completes and each memory exists once', async () => {
      const api = caller(service, TEST_KEYS.acme, 'carol');
      const total = 150;
      const accepted: string[] = [];
      let next = 0;
      let killed = false;
      const dualWriter = service.worker('dual-writer');
      const send = async () => {
        while (next < total) {
          const n = next++;
          const ack = await api.post('/v1/memory', { source: { type: 'text', content: `Receipt ${n}: I bought ${n % 9 + 1} bags of compost for the allotment on ${n % 28 + 1} May` } });
          expect(ack.status, JSON.stringify(ack.body)).to.equal(202);
          accepted.push(ack.body.jobId);
          if (accepted.length === 40 && !killed) {
            killed = true;
            await dualWriter.kill();
          }
        }
      };
      await Promise.all(Array.from({ length: 8 }, send));
      expect(killed).to.equal(true);
      // Everything the dual-writer had not committed waits in Kafka; some jobs are stuck before it until it returns.
      await dualWriter.start();
      await waitForDrain(service, 240_000);

      for (const jobId of accepted) {
        const job = await waitForJob(api, jobId, 60_000);
        expect(job.status, jobId).to.equal('Completed');
        expect(job.memoryIds).to.deep.equal([memoryIdOf(jobId, 0)]);
      }
      const stores = await openElasticsearchStores({ node: elasticsearchUrl, prefix: indexPrefixes(readServiceConfig({ ...process.env, MEMORY_NAMESPACE: service.namespace }, 'distributed')).text, dims: 384 });
      try {
        const scope = { tenantId: 'acme', endUserId: 'carol' };
        const ids = await stores.vectors.ids(scope);
        expect(ids).to.have.length(total);
        expect(new Set(ids)).to.deep.equal(new Set(accepted.map((jobId) => memoryIdOf(jobId, 0))));
        expect(await stores.vectors.count(scope)).to.equal(total);
      } finally {
        await stores.close();
      }
      const found = await api.post('/v1/search', { query: 'compost for the allotment', options: { limit: 50 } });
      const hits = found.body.data.map((m: { id: string }) => m.id);
      expect(hits).to.have.length(50);
      expect(new Set(hits).size).to.equal(hits.length);
    });
  });
});
