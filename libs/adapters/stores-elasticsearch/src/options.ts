import { EXPUNGE_DELAY_MS } from './delayed-expunge.js';
import { ConfigError, ConfigReader } from '@memory/platform';

export interface ElasticsearchStoresOptions {
  /** Base URL of the cluster, e.g. http://127.0.0.1:9200. */
  node: string;
  auth?: { username: string; password: string } | { apiKey: string };
  /**
   * Starts the name of every index and template: <prefix>-memories, -centroids, -centroid-members, -jobs. Default
   * 'memory'. A new embedding model (new dims) or a rebuild by replay gets a new prefix, then traffic switches over.
   */
  prefix?: string;
  /** Dimensions of the embedding model's vectors: fixed in the memories index when it is created. */
  dims: number;
  /**
   * When an upsert or delete of memories resolves relative to search (knn, count, ids), always after search sees it
   * but for false: 'shared' (default) after a refresh that started once the write was acknowledged, one refresh at
   * a time serving every writer (see shared-refresh.ts); 'wait_for' at the index's next scheduled refresh; true
   * after a refresh of its own (small segments under load); false at once, search catching up within
   * refreshInterval. See README.md.
   */
  refresh?: RefreshPolicy;
  /** With refresh 'shared': the least time from one refresh's start to the next's; default 100 ms. */
  minRefreshSpacingMs?: number;
  /** How often the memories index refreshes by itself, e.g. '1s' (default); it bounds how long 'wait_for' waits. */
  refreshInterval?: string;
  /**
   * Lower bound of num_candidates per knn query: the value is max(this, 10 * k), at most 10,000. Default 1,000:
   * fewer candidates lose true neighbours of one user's vectors for little time saved (figures in the README).
   */
  minCandidates?: number;
  /** HNSW graph parameters of the vector field: m (default 16), efConstruction (default 100). */
  hnsw?: { m?: number; efConstruction?: number };
  /** Primary shards per index (default 1). */
  shards?: number;
  /** Replicas per index; default: one where a second node exists ("0-1" auto-expansion). */
  replicas?: number;
  /** A request without an answer this long fails as retriable UNAVAILABLE; default 30 s. */
  requestTimeoutMs?: number;
  /**
   * How often the client itself resends a request that met no node or a 502/503/504, with backoff, before the
   * caller sees UNAVAILABLE; default 3. Conditional writes (jobs, centroids) are never resent (see documents.ts).
   */
  maxRetries?: number;
  /** How long after a deletion the merge that expunges what forgetting deleted (memories, keys, centroids, job, idempotency and webhook records) is asked for; default 70 s (README.md). */
  expungeDelayMs?: number;
}

export type RefreshPolicy = 'shared' | 'wait_for' | boolean;

export interface ElasticsearchStoresSettings {
  node: string;
  auth: ElasticsearchStoresOptions['auth'] | undefined;
  prefix: string;
  dims: number;
  refresh: RefreshPolicy;
  minRefreshSpacingMs: number;
  refreshInterval: string;
  minCandidates: number;
  hnsw: { m: number; efConstruction: number };
  shards: number;
  replicas: number | null;
  requestTimeoutMs: number;
  maxRetries: number;
  expungeDelayMs: number;
}

/** Elasticsearch's own limit on dense_vector dims for indexed vectors. */
export const MAX_DIMS = 4096;
/** Elasticsearch's upper bound on num_candidates (and so on k). */
export const MAX_CANDIDATES = 10_000;
// Index names are lower case and may not contain \ / * ? " < > | , # : or spaces, nor start with - _ +.
const PREFIX = /^[a-z0-9][a-z0-9._-]{0,99}$/;
const TIME_VALUE = /^\d+(ms|s|m|h)$/;

const positiveInteger = (value: unknown, max = Number.MAX_SAFE_INTEGER): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max;

/** Validates everything before any connection opens, and reports every problem in one ConfigError. */
export function resolveElasticsearchStoresOptions(options: ElasticsearchStoresOptions): ElasticsearchStoresSettings {
  const given = (options ?? {}) as Partial<ElasticsearchStoresOptions>;
  const problems: string[] = [];

  try {
    const url = new URL(String(given.node));
    if (url.protocol !== 'http:' && url.protocol !== 'https:') problems.push(`node must be an http or https URL, got "${given.node}"`);
  } catch {
    problems.push(`node must be a URL like http://127.0.0.1:9200, got "${String(given.node)}"`);
  }
  const auth = given.auth;
  if (auth !== undefined) {
    const ok = 'apiKey' in auth ? typeof auth.apiKey === 'string' && auth.apiKey !== '' : typeof auth.username === 'string' && auth.username !== '' && typeof auth.password === 'string';
    if (!ok) problems.push('auth must be { username, password } or { apiKey } with non-empty strings');
  }
  const prefix = given.prefix ?? 'memory';
  if (typeof prefix !== 'string' || !PREFIX.test(prefix)) {
    problems.push(`prefix must be 1-100 of a-z 0-9 . _ - and start with a letter or digit, got "${String(prefix)}"`);
  }
  if (!positiveInteger(given.dims, MAX_DIMS)) problems.push(`dims must be a whole number from 1 to ${MAX_DIMS}, got ${String(given.dims)}`);
  const refresh = given.refresh ?? 'shared';
  if (refresh !== 'shared' && refresh !== 'wait_for' && refresh !== true && refresh !== false) problems.push(`refresh must be 'shared', 'wait_for', true or false, got ${String(refresh)}`);
  const minRefreshSpacingMs = given.minRefreshSpacingMs ?? 100;
  if (!(Number.isInteger(minRefreshSpacingMs) && minRefreshSpacingMs >= 0)) problems.push(`minRefreshSpacingMs must be a whole number >= 0, got ${String(minRefreshSpacingMs)}`);
  const refreshInterval = given.refreshInterval ?? '1s';
  if (typeof refreshInterval !== 'string' || !TIME_VALUE.test(refreshInterval)) problems.push(`refreshInterval must be a time like '1s' or '500ms', got "${String(refreshInterval)}"`);
  const minCandidates = given.minCandidates ?? 1_000;
  if (!positiveInteger(minCandidates, MAX_CANDIDATES)) problems.push(`minCandidates must be a whole number from 1 to ${MAX_CANDIDATES}, got ${String(minCandidates)}`);
  const hnsw = { m: given.hnsw?.m ?? 16, efConstruction: given.hnsw?.efConstruction ?? 100 };
  if (!positiveInteger(hnsw.m, 512) || hnsw.m < 2) problems.push(`hnsw.m must be a whole number from 2 to 512, got ${String(hnsw.m)}`);
  if (!positiveInteger(hnsw.efConstruction, 3200)) problems.push(`hnsw.efConstruction must be a whole number from 1 to 3200, got ${String(hnsw.efConstruction)}`);
  const shards = given.shards ?? 1;
  if (!positiveInteger(shards, 1024)) problems.push(`shards must be a whole number from 1 to 1024, got ${String(shards)}`);
  const replicas = given.replicas ?? null;
  if (replicas !== null && !(Number.isInteger(replicas) && replicas >= 0)) problems.push(`replicas must be a whole number >= 0, got ${String(replicas)}`);
  const requestTimeoutMs = given.requestTimeoutMs ?? 30_000;
  if (!positiveInteger(requestTimeoutMs)) problems.push(`requestTimeoutMs must be a positive whole number, got ${String(requestTimeoutMs)}`);
  const maxRetries = given.maxRetries ?? 3;
  if (!(Number.isInteger(maxRetries) && maxRetries >= 0 && maxRetries <= 10)) problems.push(`maxRetries must be a whole number from 0 to 10, got ${String(maxRetries)}`);
  const expungeDelayMs = given.expungeDelayMs ?? EXPUNGE_DELAY_MS;
  if (!positiveInteger(expungeDelayMs)) problems.push(`expungeDelayMs must be a positive whole number, got ${String(expungeDelayMs)}`);

  if (problems.length) throw new ConfigError(`invalid Elasticsearch store options: ${problems.join('; ')}`, { problems });
  return {
    node: String(given.node),
    auth,
    prefix,
    dims: given.dims as number,
    refresh,
    minRefreshSpacingMs,
    refreshInterval,
    minCandidates,
    hnsw,
    shards,
    replicas,
    requestTimeoutMs,
    maxRetries,
    expungeDelayMs,
  };
}

/**
 * The connection part of the options from the environment the engines scripts print (`npm run engines env`):
 * ELASTICSEARCH_URL (default http://127.0.0.1:9200) and ELASTICSEARCH_INDEX_PREFIX (default memory).
 */
export function elasticsearchStoresOptionsFromEnv(env: Record<string, string | undefined> = process.env): Pick<ElasticsearchStoresOptions, 'node' | 'prefix'> {
  const config = new ConfigReader(env);
  return {
    node: config.string('ELASTICSEARCH_URL', 'http://127.0.0.1:9200'),
    prefix: config.string('ELASTICSEARCH_INDEX_PREFIX', 'memory'),
  };
}
