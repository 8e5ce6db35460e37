import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { dropNamespace, readServiceConfig } from '@memory/composition';
import { localEngines, ServiceProcess, TEST_KEYS } from '@memory/testing';
import { elasticsearchStoreBytes, treeMemory } from './perf-footprint.js';
import type { Print } from './progress.js';
import { restartOnSamePort, ServiceStartError, type Target } from './service.js';

/** The launcher `npm run start:distributed` runs: the edge, the search app and one process per stage. */
const LAUNCHER = fileURLToPath(new URL('../../cli/start-distributed.mjs', import.meta.url));

/**
 * The engines the distributed service needs that do not answer, each with how to start it; empty when all answer.
 * Asked before a run, so a benchmark that would end in the distributed mode fails at once rather than after its
 * embedded part.
 */
export async function absentEngines(env: Record<string, string | undefined> = process.env): Promise<string[]> {
  const engines = localEngines(env);
  const absent = [];
  for (const engine of [engines.kafka, engines.registry, engines.elasticsearch, engines.minio]) {
    if (!(await engine.probe())) absent.push(`${engine.name} (${engine.endpoint}): ${engine.hint}`);
  }
  return absent;
}

/** Fails, saying what to start, when an engine the distributed mode needs does not answer. */
export async function requireEngines(env: Record<string, string | undefined> = process.env): Promise<void> {
  const absent = await absentEngines(env);
  if (absent.length > 0) throw new ServiceStartError(`the distributed mode needs the engines; not answering:\n  ${absent.join('\n  ')}\nor run all of them with \`npm run engines:up\``);
}

/** A distributed deployment started by launchDistributed: its launcher process and how to remove its namespace. */
export interface DistributedLaunch {
  service: ServiceProcess;
  namespace: string;
  /** Stops every process, removes the launcher's data dir and the namespace's indices, topics and groups. */
  stop(): Promise<void>;
}

/**
 * Starts the distributed service against the engines `npm run engines:up` runs (Kafka, the schema registry,
 * Elasticsearch, MinIO), on a namespace of its own, so its topics, groups and indices start empty and are told apart
 * from everything else on the engines. Its indices, topics and consumer groups are deleted on stop. `env` adds to
 * (or overrides) the variables the launcher gets, e.g. fixed ports or other engines' addresses.
 */
export async function launchDistributed(print: Print, env: Record<string, string> = {}): Promise<DistributedLaunch> {
  await requireEngines({ ...process.env, ...env });

  const namespace = `bench-${randomBytes(4).toString('hex')}`;
  const service = new ServiceProcess({
    entry: LAUNCHER,
    readyLine: /Memory service \(distributed\) ready on (http:\/\/\S+)/,
    startTimeoutMs: 240_000,
    env: { MEMORY_NAMESPACE: namespace, MEMORY_SEARCH_PORT: '0', MEMORY_STAGE_PORT_BASE: '0', ...env },
  });
  const removeNamespace = () =>
    dropNamespace(readServiceConfig({ ...process.env, ...env, MEMORY_NAMESPACE: namespace }, 'distributed')).catch((error: unknown) =>
      print(`  could not remove the namespace ${namespace} from the engines: ${error instanceof Error ? error.message : String(error)}`),
    );
  print(`starting the distributed service (namespace ${namespace}) ...`);
  const started = performance.now();
  try {
    await service.start();
  } catch (error) {
    await service.stop().catch(() => undefined);
    service.cleanup();
    await removeNamespace();
    const reason = error instanceof Error ? error.message : String(error);
    throw new ServiceStartError(`the distributed service did not start: ${reason.split('\n').slice(0, 30).join('\n')}\nCheck that \`npm run start:distributed\` works on its own.`);
  }
  print(`service ready on ${service.url} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return {
    service,
    namespace,
    stop: async () => {
      await service.stop();
      service.cleanup();
      await removeNamespace();
    },
  };
}

/** launchDistributed as a benchmark's target. */
export async function startDistributedService(print: Print): Promise<Target> {
  const { service, namespace, stop } = await launchDistributed(print);
  const elasticsearch = localEngines().elasticsearch.endpoint;
  return {
    url: service.url,
    apiKey: TEST_KEYS.acme,
    identity: `distributed (${namespace})`,
    namespace,
    dataDir: null,
    pid: () => service.pid,
    footprint: async () => ({
      ...treeMemory(service.pid),
      diskBytes: await elasticsearchStoreBytes(elasticsearch, `${namespace}-memory*`),
      disk: 'Elasticsearch indices of the namespace (Kafka topics and MinIO not counted)',
    }),
    otherApiKey: TEST_KEYS.globex,
    restart: restartOnSamePort(service),
    stop,
  };
}
