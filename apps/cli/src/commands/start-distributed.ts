import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appBundles, loadApiKeys, readServiceConfig, stageWorkerGroups, stageWorkerName, supervise, type BundledApp, type ProcessSpec } from '@memory/composition';
import { loaderFlags } from '@memory/platform';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

/** How each app is started: its compiled bundle, or its TypeScript source through tsx (MEMORY_COMPILED_APPS=off). */
async function appCommands(env: Record<string, string | undefined>, print: (line: string) => void): Promise<(entry: BundledApp) => string[]> {
  if (env['MEMORY_COMPILED_APPS'] === 'off') return (entry) => sourceCommand(join(repoRoot, 'apps', entry, 'src', 'main.ts'));
  const bundles = await appBundles(repoRoot, print);
  return (entry) => [bundles[entry]];
}

const sourceCommand = (script: string) => [...loaderFlags(script), script];

/**
 * `build-apps`: compiles the apps when a source changed since the last build, and says where each bundle is
 * (start-distributed's launcher, which runs the compiled cli itself, asks for it first: apps/cli/start-distributed.mjs).
 */
export async function buildApps(print: (line: string) => void): Promise<Record<BundledApp, string>> {
  return appBundles(repoRoot, print);
}

/**
 * Node's flags for the apps. Under load V8 lets a heap grow to several times what it keeps alive before its next
 * full collection (the dynamic factor goes up to 4); a fixed fifth above the live heap after each one keeps the
 * processes' garbage bounded. The young generation's semispaces grow to 16 MB each under a steady stream of
 * short-lived objects and stay committed; 8 MB holds a batch's or a search's garbage as well, but not the edge's
 * hundreds of requests in flight, which it then promoted at more CPU per accept (README, Memory per process).
 * Operators can set MEMORY_APP_NODE_FLAGS for every app ('' for none).
 */
const defaultNodeFlags = (entry: BundledApp) => (entry === 'edge' ? '--heap-growing-percent=20' : '--heap-growing-percent=20 --max-semi-space-size=8');

/**
 * A command run at a niceness, through nice(1) so that every thread of the process has it (Linux sets a niceness
 * per thread, and a running process's other threads would keep theirs).
 */
function niced(nice: number, command: string, args: string[]): Pick<ProcessSpec, 'command' | 'args'> {
  return nice === 0 || process.platform === 'win32' ? { command, args } : { command: 'nice', args: ['-n', String(nice), command, ...args] };
}

/**
 * The distributed mode on one machine: the search app, one process per consumer group, then the edge on PORT, all
 * against the engines (`npm run engines:up`). Same variables as `npm start`; a process that dies is restarted.
 */
export async function startDistributed(env: Record<string, string | undefined>, print: (line: string) => void): Promise<void> {
  const config = readServiceConfig(env, 'distributed');
  // Resolved once here so a development key is created (and printed) once, before the apps read it.
  loadApiKeys(config.dataDir, config.apiKeys, print);
  const command = await appCommands(env, print);
  const nodeFlags = (entry: BundledApp) => (env['MEMORY_APP_NODE_FLAGS'] ?? defaultNodeFlags(entry)).split(/\s+/).filter(Boolean);
  const app = (name: string, entry: BundledApp, appEnv: Record<string, string | undefined>): ProcessSpec => ({
    name,
    ...niced(entry === 'stage-worker' ? config.pipelineNice : 0, process.execPath, [...nodeFlags(entry), ...command(entry)]),
    // glibc gives each thread that allocates an arena of its own, up to 8 per core, and a fragmented arena keeps what
    // was freed: the enricher (threads for the model, ONNX Runtime and libuv) held ~50 MB more that way. Two arenas
    // unless the operator sets it; other C libraries ignore the variable.
    env: { MALLOC_ARENA_MAX: env['MALLOC_ARENA_MAX'] ?? '2', ...appEnv },
  });
  const supervisor = supervise(print);
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      print(`${signal}: stopping all processes...`);
      supervisor.stop().then(() => process.exit(0));
    });
  }

  const workers = stageWorkerGroups(config.stageWorkers);
  print(`Starting the search app, ${workers.length} stage workers and the edge against Kafka ${config.kafka.brokers.join(',')} and Elasticsearch ${config.elasticsearch.url}...`);
  try {
    const searchUrl = await supervisor.start(app('search', 'search', { PORT: env['MEMORY_SEARCH_PORT'] ?? '8090' }));
    const stagePort = (index: number) => String(config.stagePortBase === 0 ? 0 : config.stagePortBase + index);
    const workerUrls = await Promise.all(workers.map((stages, index) => supervisor.start(app(stageWorkerName(stages), 'stage-worker', { MEMORY_STAGES: stages.join(','), PORT: stagePort(index) }))));
    // Search apps started elsewhere (by hand, or on other machines) that the edge takes in turn with this one.
    const elsewhere = env['MEMORY_SEARCH_URL'] === undefined ? [] : config.searchUrls.filter((url) => url !== searchUrl);
    const searchUrls = [searchUrl, ...elsewhere];
    const edgeUrl = await supervisor.start(app('edge', 'edge', { MEMORY_SEARCH_URL: searchUrls.join(',') }));
    if (searchUrls.length > 1) print(`The edge takes searches to ${searchUrls.join(', ')} in turn`);
    if (config.metrics) {
      const scraped = [['edge', edgeUrl], ['search', searchUrl], ...workers.map((stages, index) => [stageWorkerName(stages), workerUrls[index]!])];
      print(`Metrics (Prometheus, GET /metrics): ${scraped.map(([name, url]) => `${name} ${url}/metrics`).join(', ')}`);
    }
    print(`Memory service (distributed) ready on ${edgeUrl}`);
  } catch (error) {
    await supervisor.stop();
    throw error;
  }
}
