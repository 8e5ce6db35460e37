import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ServiceProcess, TEST_KEYS } from '@memory/testing';
import { proportionalMb, residentMb } from '@memory/platform';
import { diskBytes, treeFootprints, type Footprint } from './perf-footprint.js';
import type { Print } from './progress.js';

/** The service under measurement: where to send requests, with which key, and how to let go of it. */
export interface Target {
  url: string;
  apiKey: string;
  /** "embedded" or the URL: recorded in the manifest, since memories live in one service and not another. */
  identity: string;
  /** The distributed service's namespace (its topics are `<namespace>.<topic>`); absent for the others. */
  namespace?: string;
  /** The embedded service's data folder; null for a service found at --url. */
  dataDir: string | null;
  /** The embedded service's process id, for its resident memory; null for a service found at --url. */
  pid(): number | null;
  /** Resident memory and bytes on disk of what this service started. */
  footprint(): Promise<Footprint>;
  /** Another tenant's API key, for the scenarios that need two; null for a service found at --url. */
  otherApiKey: string | null;
  /**
   * Stops the service and starts it again on the same address and data with these variables added (the overload
   * scenario's quotas; {} for the defaults again); null for a service found at --url.
   */
  restart: ((env: Record<string, string>) => Promise<void>) | null;
  stop(): Promise<void>;
}

/** A restart that keeps the address, so clients holding the URL carry on. */
export function restartOnSamePort(service: ServiceProcess): (env: Record<string, string>) => Promise<void> {
  return async (env) => {
    const port = new URL(service.url).port;
    await service.stop();
    await service.start({ ...env, PORT: port });
  };
}

/** memoryd as `npm start` runs it, on the source (no build needed). */
const MEMORYD_ENTRY = fileURLToPath(new URL('../../memoryd/src/main.ts', import.meta.url));

/**
 * Starts the embedded service on a data folder and a free port, with a known API key, the way the end-to-end tests
 * do, so the figures measure the service as shipped and not an in-process shortcut.
 */
export async function startEmbeddedService(dataDir: string, print: Print): Promise<Target> {
  mkdirSync(dataDir, { recursive: true });
  const service = new ServiceProcess({ entry: MEMORYD_ENTRY, dataDir, startTimeoutMs: 180_000 });
  print(`starting the embedded service on ${dataDir} ...`);
  const started = performance.now();
  try {
    await service.start();
  } catch (error) {
    await service.stop().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new ServiceStartError(
      `the embedded service did not start: ${reason.split('\n').slice(0, 30).join('\n')}\n` +
        'Check that `npm start` works on its own (the model files under .cache/models, MEMORY_* variables); ' +
        'a --keep data folder made with another embedding model refuses to start: remove it to begin again.',
    );
  }
  print(`service ready on ${service.url} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return {
    url: service.url,
    apiKey: TEST_KEYS.acme,
    identity: 'embedded',
    dataDir,
    pid: () => service.pid,
    footprint: async () => ({ rssMb: residentMb(service.pid), pssMb: proportionalMb(service.pid), diskBytes: diskBytes(dataDir), disk: 'the data folder (event log, stores, job records)', processes: treeFootprints(service.pid) }),
    otherApiKey: TEST_KEYS.globex,
    restart: restartOnSamePort(service),
    stop: () => service.stop(),
  };
}

/** A service someone else runs: checked before the benchmark starts, so a wrong address or key fails at once. */
export async function remoteService(url: string, apiKey: string, print: Print): Promise<Target> {
  const probe = async (path: string) => {
    try {
      return await fetch(url + path, { headers: { authorization: `Bearer ${apiKey}` } });
    } catch (error) {
      throw new ServiceStartError(`no service answers at --url ${url} (${error instanceof Error ? error.message : String(error)}): start it, or leave out --url and --key to let the benchmark start one`);
    }
  };
  await probe('/health/live');
  // An unknown job is a 404 for a valid key and a 401 for a wrong one.
  const auth = await probe('/v1/jobs/job_0_locomo-bench-probe');
  if (auth.status === 401) throw new ServiceStartError(`the service at ${url} refuses the --key (401): pass one of its MEMORY_API_KEYS`);
  print(`using the service at ${url}`);
  return {
    url,
    apiKey,
    identity: url,
    dataDir: null,
    pid: () => null,
    footprint: async () => ({ rssMb: null, pssMb: null, diskBytes: null, disk: 'not measured: a service someone else runs', processes: [] }),
    otherApiKey: null,
    restart: null,
    stop: async () => undefined,
  };
}

export class ServiceStartError extends Error {
  override readonly name = 'ServiceStartError';
}
