import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { dropElasticsearchStores } from '@memory/stores-elasticsearch';
import { localEngines, ServiceProcess, TEST_KEYS } from '@memory/testing';
import { elasticsearchStoreBytes, treeResidentMb } from './perf-footprint.js';
import type { Print } from './progress.js';
import { ServiceStartError, type Target } from './service.js';

/** The launcher `npm run start:distributed` runs: the edge, the search app and one process per stage. */
const CLI_ENTRY = fileURLToPath(new URL('../../cli/src/main.ts', import.meta.url));

/**
 * Starts the distributed service against the engines `npm run engines:up` runs (Kafka, the schema registry,
 * Elasticsearch, MinIO), on a namespace of its own, so its topics, groups and indices start empty and are told apart
 * from everything else on the engines. Its indices are dropped on stop.
 */
export async function startDistributedService(print: Print): Promise<Target> {
  const engines = localEngines();
  const needed = [engines.kafka, engines.registry, engines.elasticsearch, engines.minio];
  const absent = [];
  for (const engine of needed) if (!(await engine.probe())) absent.push(`${engine.name} (${engine.endpoint}): ${engine.hint}`);
  if (absent.length > 0) throw new ServiceStartError(`--mode distributed needs the engines; not answering:\n  ${absent.join('\n  ')}\nor run all of them with \`npm run engines:up\``);

  const namespace = `bench-${randomBytes(4).toString('hex')}`;
  const service = new ServiceProcess({
    entry: CLI_ENTRY,
    args: ['start-distributed'],
    readyLine: /Memory service \(distributed\) ready on (http:\/\/\S+)/,
    startTimeoutMs: 240_000,
    env: { MEMORY_NAMESPACE: namespace, MEMORY_SEARCH_PORT: '0' },
  });
  const elasticsearch = engines.elasticsearch.endpoint;
  const dropIndices = async () => {
    for (const prefix of [`${namespace}-memory`, `${namespace}-memory-visual`]) await dropElasticsearchStores({ node: elasticsearch, prefix }).catch(() => undefined);
  };
  print(`starting the distributed service (namespace ${namespace}) ...`);
  const started = performance.now();
  try {
    await service.start();
  } catch (error) {
    await service.stop().catch(() => undefined);
    service.cleanup();
    await dropIndices();
    const reason = error instanceof Error ? error.message : String(error);
    throw new ServiceStartError(`the distributed service did not start: ${reason.split('\n').slice(0, 30).join('\n')}\nCheck that \`npm run start:distributed\` works on its own.`);
  }
  print(`service ready on ${service.url} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return {
    url: service.url,
    apiKey: TEST_KEYS.acme,
    identity: `distributed (${namespace})`,
    dataDir: null,
    pid: () => service.pid,
    footprint: async () => ({
      rssMb: treeResidentMb(service.pid),
      diskBytes: await elasticsearchStoreBytes(elasticsearch, `${namespace}-memory*`),
      disk: 'Elasticsearch indices of the namespace (Kafka topics and MinIO not counted)',
    }),
    stop: async () => {
      await service.stop();
      service.cleanup();
      await dropIndices();
    },
  };
}
