import { ConfigError } from '@memory/platform';

export interface ArangoGraphStoreOptions {
  /** The ArangoDB endpoint (ARANGO_URL), e.g. http://127.0.0.1:8529. */
  url: string;
  /** The database holding the graph (ARANGO_DATABASE). Default `memory`. */
  database?: string;
  /** ARANGO_USERNAME; default `root`. */
  username?: string;
  /** ARANGO_PASSWORD; default empty. */
  password?: string;
  /**
   * Starts the name of every collection and of the graph, so several stores (or test runs) can share one
   * database. Default `memory_`.
   */
  collectionPrefix?: string;
  /** Create the database when it is missing (needs rights on `_system`). Default false: a missing database is an error. */
  createDatabase?: boolean;
  /** Resolve writes only once ArangoDB has synced them to disk. Default true: offsets are committed after a write resolves. */
  waitForSync?: boolean;
  /** Client-side limit on each query, in ms. Default 30000. */
  queryTimeoutMs?: number;
  /** How often a write that met a write-write conflict is sent again by the driver before failing. Default 3. */
  conflictRetries?: number;
}

export type ResolvedArangoGraphStoreOptions = Required<ArangoGraphStoreOptions>;

// arangojs accepts these schemes (configuration.d.ts: url); ssl/tls/tcp are its aliases of https/http.
const SCHEMES = new Set(['http:', 'https:', 'tcp:', 'ssl:', 'tls:', 'unix:', 'http+unix:', 'https+unix:', 'tcp+unix:', 'ssl+unix:']);
// The "traditional" ArangoDB naming rules, valid whether or not a server allows extended names. The prefix is
// kept short enough that prefix + the longest suffix ("other_nodes") fits even the 64-byte limit of versions
// before 3.11 (3.12 allows 256).
const DATABASE_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const PREFIX = /^[A-Za-z][A-Za-z0-9_-]{0,39}$/;

/** Checks the options and fills in defaults, before anything connects; every problem is reported at once. */
export function resolveArangoGraphStoreOptions(options: ArangoGraphStoreOptions): ResolvedArangoGraphStoreOptions {
  const problems: string[] = [];
  const resolved: ResolvedArangoGraphStoreOptions = {
    url: options?.url,
    database: options?.database ?? 'memory',
    username: options?.username ?? 'root',
    password: options?.password ?? '',
    collectionPrefix: options?.collectionPrefix ?? 'memory_',
    createDatabase: options?.createDatabase ?? false,
    waitForSync: options?.waitForSync ?? true,
    queryTimeoutMs: options?.queryTimeoutMs ?? 30_000,
    conflictRetries: options?.conflictRetries ?? 3,
  };

  if (typeof resolved.url !== 'string' || resolved.url.trim() === '') problems.push('url must be the ArangoDB endpoint, e.g. http://127.0.0.1:8529');
  else if (!URL.canParse(resolved.url) || !SCHEMES.has(new URL(resolved.url).protocol)) problems.push(`url must be an http(s) URL, got "${resolved.url}"`);
  if (typeof resolved.database !== 'string' || !DATABASE_NAME.test(resolved.database)) {
    problems.push(`database must start with a letter and hold only letters, digits, _ and - (at most 64), got ${JSON.stringify(resolved.database)}`);
  }
  if (typeof resolved.username !== 'string' || resolved.username === '') problems.push('username must be a non-empty string');
  if (typeof resolved.password !== 'string') problems.push('password must be a string');
  if (typeof resolved.collectionPrefix !== 'string' || !PREFIX.test(resolved.collectionPrefix)) {
    problems.push(`collectionPrefix must start with a letter and hold only letters, digits, _ and - (at most 40), got ${JSON.stringify(resolved.collectionPrefix)}`);
  }
  if (typeof resolved.createDatabase !== 'boolean') problems.push('createDatabase must be true or false');
  if (typeof resolved.waitForSync !== 'boolean') problems.push('waitForSync must be true or false');
  if (!Number.isInteger(resolved.queryTimeoutMs) || resolved.queryTimeoutMs < 1) problems.push('queryTimeoutMs must be a whole number >= 1');
  if (!Number.isInteger(resolved.conflictRetries) || resolved.conflictRetries < 0) problems.push('conflictRetries must be a whole number >= 0');

  if (problems.length) throw new ConfigError(`invalid ArangoDB graph store options:\n  - ${problems.join('\n  - ')}`, { problems });
  return resolved;
}
