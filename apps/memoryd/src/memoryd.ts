import { join } from 'node:path';
import type { Server } from 'node:http';
import { AvroCodec, DEFAULT_PARTITIONS, EVENTS, type EventName } from '@memory/contracts';
import { createLogger } from '@memory/platform';
import type { Consumer, Embedder, EventLog } from '@memory/ports';
import { createApiKeyRegistry, createHttpApi, createIngestion } from '@memory/http-api';
import { runStage } from '@memory/pipeline-runtime';
import { temporalResolverStage } from '@memory/stage-temporal-resolver';
import { enricherStage } from '@memory/stage-enricher';
import { dualWriterStage } from '@memory/stage-dual-writer';
import { centroidCalibratorStage } from '@memory/stage-centroid-calibrator';
import { jobTrackerStage } from '@memory/stage-job-tracker';
import { createEnricher } from '@memory/enrichment';
import { createEmbeddedEventLog } from '@memory/eventlog-embedded';
import { createEmbeddedSchemaRegistry } from '@memory/schema-registry-embedded';
import { openEmbeddedVectorStores } from '@memory/vectors-embedded';
import { createEmbeddedGraphStore } from '@memory/graph-embedded';
import { createEmbeddedJobStore } from '@memory/jobs-embedded';
import { createOnnxEmbedder } from '@memory/embedder-onnx';
import { createHostedEmbedder } from '@memory/embedder-hf';
import { readConfig, type MemorydConfig } from './config.js';
import { loadApiKeys } from './dev-key.js';

export interface RunningMemoryd {
  url: string;
  config: MemorydConfig;
  stop(): Promise<void>;
}

/** Wires the whole service on the embedded engines: one process, data under MEMORY_DATA_DIR, no servers. */
export async function startMemoryd(options: { env: Record<string, string | undefined>; print: (line: string) => void }): Promise<RunningMemoryd> {
  const config = readConfig(options.env);
  const logger = createLogger({ app: 'memoryd' });
  const checks: Record<string, string> = { model: 'loading', eventLog: 'opening', stages: 'starting' };
  const apiKeys = createApiKeyRegistry(loadApiKeys(config.dataDir, config.apiKeys, options.print));

  const registry = await createEmbeddedSchemaRegistry({ dir: join(config.dataDir, 'registry') });
  const log = await createEmbeddedEventLog({ dir: join(config.dataDir, 'log'), defaultPartitions: config.partitions });
  const codec = new AvroCodec(registry);
  await codec.registerAll();
  await log.ensureTopics(Object.values(EVENTS).map((e) => ({ name: e.topic, partitions: config.partitions ?? DEFAULT_PARTITIONS })));
  checks['eventLog'] = 'ok';

  const { vectors, centroids } = await openEmbeddedVectorStores({ dir: join(config.dataDir, 'vectors') });
  const graph = await createEmbeddedGraphStore({ dir: join(config.dataDir, 'graph') });
  const jobs = await createEmbeddedJobStore({ dir: join(config.dataDir, 'jobs') });

  options.print('Loading the embedding model and WordNet...');
  const [embedder, enricher] = await Promise.all([makeEmbedder(config), createEnricher()]);
  checks['model'] = `ok (${embedder.model.name}@${embedder.model.version})`;

  const runner = { log, codec, logger, maxBatchSize: config.embedBatch };
  const stages = [temporalResolverStage, enricherStage, dualWriterStage, centroidCalibratorStage, jobTrackerStage];
  const consumers: Consumer[] = await Promise.all([
    runStage(temporalResolverStage, {}, runner),
    runStage(enricherStage, { enricher, embedder }, runner),
    runStage(dualWriterStage, { vectors, graph }, runner),
    runStage(centroidCalibratorStage, { centroids }, runner),
    runStage(jobTrackerStage, { jobs }, runner),
  ]);
  checks['stages'] = 'ok';

  const app = createHttpApi({
    apiKeys,
    ingestion: createIngestion({ log, codec, jobs, logger }),
    search: { vectors, embedder },
    jobs,
    logger,
    readiness: async () => ({ ready: Object.values(checks).every((c) => c.startsWith('ok')), checks, lag: await pipelineLag(log, stages) }),
  });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.port, config.host, () => resolve(s));
    s.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
  options.print(`Memory service ready on ${url} (data in ${config.dataDir})`);

  return {
    url,
    config,
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all(consumers.map((c) => c.stop()));
      await Promise.all([log.close(), registry.close(), vectors.close(), centroids.close(), graph.close(), jobs.close(), embedder.close()]);
    },
  };
}

/** Unprocessed records per consumer group, summed over its topics and partitions. */
async function pipelineLag(log: EventLog, stages: Array<{ group: string; inputs: readonly EventName[] }>): Promise<Record<string, number>> {
  const lag: Record<string, number> = {};
  for (const stage of stages) {
    let behind = 0;
    for (const input of stage.inputs) {
      for (const p of await log.lag(stage.group, EVENTS[input].topic)) behind += Math.max(0, p.end - p.committed);
    }
    lag[stage.group] = behind;
  }
  return lag;
}

async function makeEmbedder(config: MemorydConfig): Promise<Embedder> {
  if (config.embedder === 'huggingface') {
    return createHostedEmbedder({
      token: config.huggingface.token!,
      dimensions: config.huggingface.dimensions,
      ...(config.huggingface.model ? { model: config.huggingface.model } : {}),
      ...(config.huggingface.endpointUrl ? { endpointUrl: config.huggingface.endpointUrl } : {}),
    });
  }
  // The quantised model's vectors shift with their batch neighbours (dynamic quantisation scales per batch), so it
  // embeds one text per run: the same text always gets the same vector, and replays write identical memories.
  return createOnnxEmbedder({ ...(config.embedThreads ? { threads: config.embedThreads } : {}), ...(config.modelDir ? { modelDir: config.modelDir } : {}) });
}
