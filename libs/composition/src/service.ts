import { createServer, type RequestListener, type Server } from 'node:http';
import { statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createLogger } from '@memory/platform';
import { observeJobs, observeLag } from '@memory/metrics';
import type { Consumer, EventLog } from '@memory/ports';
import { createJobIdClock, type AvroCodec } from '@memory/contracts';
import type { Admission, HttpApiDeps } from '@memory/http-api';
import { closeHttpServer, createHealthApi, guardHttpServer } from '@memory/http-api/health';
import { loadApiKeys } from './api-keys.js';
import { readServiceConfig, type ServiceConfig } from './config.js';
import { openInfrastructure, type Infrastructure } from './infrastructure.js';
import { partitionLag, pipelineLag, StartupChecks } from './readiness.js';
import { stageGroups, startStages, type StageName } from './stages.js';
import { webhookSchedule } from './webhooks.js';

/** What one process does: which HTTP routes it serves (if any) and which consumer groups it runs. */
export interface Roles {
  /** Display name in logs and the ready line, e.g. 'memoryd', 'edge', 'search', 'stage worker'. */
  name: string;
  mode: ServiceConfig['mode'];
  http: {
    ingestion: boolean;
    jobs: boolean;
    /** 'local' answers searches here; 'proxy' hands them to the search app at MEMORY_SEARCH_URL; 'none' has no search route. */
    search: 'local' | 'proxy' | 'none';
    /** Whether /v1 routes exist at all; a stage worker serves only the health routes. */
    api: boolean;
  };
  stages: StageName[];
  /** Consumer groups whose lag the readiness answer reports (the edge reports the whole pipeline's). */
  reportLagOf: StageName[];
}

export interface RunningService {
  url: string;
  config: ServiceConfig;
  infra: Infrastructure;
  stop(): Promise<void>;
}

/**
 * Starts a process of the service with the given roles on the configured engines. Apps are this call plus
 * their roles; memoryd is every role on the embedded engines.
 */
export async function startService(roles: Roles, options: { env: Record<string, string | undefined>; print: (line: string) => void }): Promise<RunningService> {
  const config = readServiceConfig(options.env, roles.mode);
  const logger = createLogger({ app: roles.name });
  const infra = openInfrastructure(config, logger);
  const needsModel = roles.http.search === 'local' || roles.stages.includes('enricher');
  const checks = new StartupChecks(['event log', ...(needsModel ? ['model'] : []), ...(roles.stages.length ? ['stages'] : [])]);
  // The API and what it pulls in (its routes, schemas, the search library) load only in a process that serves /v1.
  const api = roles.http.api ? await import('@memory/http-api') : undefined;
  const apiKeys = api ? api.createApiKeyRegistry(loadApiKeys(config.dataDir, config.apiKeys, options.print)) : undefined;
  for (const line of infra.engines) options.print(`${roles.name}: ${line}`);

  let consumers: Consumer[] = [];
  let server: Server | undefined;
  const unobserve: Array<() => void> = [];
  try {
    const { log, codec } = await infra.eventBus();
    checks.ok('event log');
    const reported = await stageGroups(roles.reportLagOf);
    if (needsModel) {
      options.print('Loading the embedding model and WordNet...');
      const [embedder] = await Promise.all([infra.embedder(), roles.stages.includes('enricher') ? infra.enricher() : undefined]);
      checks.ok('model', `${embedder.model.name}@${embedder.model.version}`);
    }
    consumers = await startStages(infra, roles.stages);
    if (roles.stages.length) checks.ok('stages', roles.stages.join(', '));

    const health = {
      logger,
      readiness: async () => ({ ready: checks.ready, checks: checks.snapshot(), lag: await pipelineLag(log, reported) }),
      metrics: config.metrics,
    };
    // The lag of the groups readiness reports: the edge reports every group's, so it shows while a worker is down.
    if (roles.reportLagOf.length) unobserve.push(observeLag(() => partitionLag(log, reported)));
    const listener = api && apiKeys ? await apiListener(api, { ...health, apiKeys }, roles, infra, { log, codec, unobserve, reported }) : createHealthApi(health);
    server = await listen(listener, config.port, config.host);
  } catch (error) {
    for (const stop of unobserve) stop();
    await Promise.all(consumers.map((consumer) => consumer.stop()));
    await infra.close().catch(() => {});
    throw error;
  }

  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
  options.print(roles.name === 'memoryd' ? `Memory service ready on ${url} (data in ${config.dataDir})` : `${roles.name} ready on ${url}`);

  const running = server;
  return {
    url,
    config,
    infra,
    async stop() {
      await closeHttpServer(running);
      for (const stop of unobserve) stop();
      await Promise.all(consumers.map((consumer) => consumer.stop()));
      await infra.close();
    },
  };
}

/** The /v1 API of a process that serves it, with the parts its roles ask for (ingestion, jobs, search or its relay). */
async function apiListener(
  api: typeof import('@memory/http-api'),
  deps: HttpApiDeps,
  roles: Roles,
  infra: Infrastructure,
  bus: { log: EventLog; codec: AvroCodec; unobserve: Array<() => void>; reported: Awaited<ReturnType<typeof stageGroups>> },
): Promise<RequestListener> {
  const { config, logger } = infra;
  const { log, codec, reported } = bus;
  if (roles.http.ingestion) {
    deps.blobs = await infra.blobs();
    deps.documentMaxBytes = config.documentMaxBytes;
    if (config.publicUrl) deps.publicUrl = config.publicUrl;
    // One clock for every job id this process issues, so an erasure and an ingestion never share a millisecond.
    const issueJobId = api.createJobIdIssuer(await infra.keyring(), createJobIdClock());
    deps.admission = await startAdmission(api.Admission, config, { jobs: await infra.jobs(), logger, backlogRecords: async () => Math.max(0, ...Object.values(await pipelineLag(log, reported))) });
    const inFlight = deps.admission;
    deps.ingestion = api.createIngestion({ log, codec, jobs: await infra.jobs(), keys: await infra.keyring(), blobs: deps.blobs, logger, issueJobId, inFlight });
    deps.forgetting = api.createForgetting({ log, codec, jobs: await infra.jobs(), logger, keys: await infra.keyring(), issueJobId, inFlight });
    deps.idempotency = api.createIdempotency({ store: await infra.idempotency(), ttlMs: config.idempotencyTtlHours * 3_600_000, logger });
    deps.updating = api.createUpdating({ log, codec, jobs: await infra.jobs(), keys: await infra.keyring(), logger, vectors: await infra.vectors(), issueJobId, inFlight });
  }
  if (roles.http.jobs) {
    deps.jobs = await infra.jobs();
    const jobs = deps.jobs;
    bus.unobserve.push(observeJobs(() => jobs.countByState()));
    deps.webhooks = { store: await infra.webhooks(), allowPrivateTargets: config.webhooks.allowPrivateTargets, schedule: webhookSchedule(config) };
  }
  deps.mcp = config.mcpFileRoot ? { fileRoot: config.mcpFileRoot } : {};
  if (roles.http.search === 'local') {
    deps.search = {
      vectors: await infra.vectors(),
      embedder: await infra.embedder(),
      centroids: await infra.centroids(),
      graph: await infra.graph(),
      images: { visualVectors: await infra.visualVectors(), files: await infra.files() } };
  }
  if (roles.http.search === 'proxy') deps.search = { proxyTo: config.searchUrls };
  return api.createHttpApi(deps);
}

/** The edge's admission, its signals read once before the first request: the backlog, and the data folder's free space. */
async function startAdmission(AdmissionClass: typeof Admission, config: ServiceConfig, sources: Omit<ConstructorParameters<typeof Admission>[1], 'freeDiskBytes'>): Promise<Admission> {
  const { minFreeDiskMb, ...policy } = config.admission;
  const freeDiskBytes = async () => {
    // The folder an edge of the distributed mode never wrote to may not exist yet: its disk is that of its parent.
    for (let dir = config.dataDir; ; dir = dirname(dir)) {
      const stats = await statfs(dir).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT' || dirname(dir) === dir) throw error;
        return null;
      });
      if (stats) return stats.bavail * stats.bsize;
    }
  };
  const admission = new AdmissionClass({ ...policy, minFreeDiskBytes: minFreeDiskMb * 1024 * 1024 }, { ...sources, freeDiskBytes });
  await admission.refresh();
  return admission;
}

function listen(api: RequestListener, port: number, host: string): Promise<Server> {
  return new Promise<Server>((resolve, reject) => {
    const server = createServer(api);
    server.listen(port, host, () => resolve(server));
    // Node's 5 s keep-alive timeout races clients that reuse an idle connection (and fires late, all at once, when
    // the event loop was busy reading an image or a PDF): keep idle connections longer than the usual client or
    // load-balancer idle timeouts, so the client closes first.
    server.keepAliveTimeout = 65_000;
    server.headersTimeout = 66_000;
    // Header floods, malformed requests, odd Expect headers and CONNECT never reach Express: answer them with the
    // JSON error body too.
    guardHttpServer(server);
    server.once('error', reject);
  });
}
