import { ConfigError, ConfigReader } from '@memory/platform';

export interface MinioBlobStoreOptions {
  /** Base URL of the S3 API, e.g. http://127.0.0.1:9000 (https for TLS). */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  /** The one bucket all tenants share (why one: see minio-blob-store.ts); created if missing. */
  bucket: string;
  /** Put before every key, e.g. "memory/" to share a bucket with other data; empty by default. Ends with "/". */
  prefix?: string;
  /** Region the bucket is created in; MinIO ignores it. Default us-east-1. */
  region?: string;
  /**
   * Bytes buffered per part of a streamed upload: the memory one upload holds. S3 wants at least 5 MiB for every
   * part but the last; default 8 MiB. Uploads that end before one part fills are sent as one plain PUT.
   */
  partSize?: number;
  /** A request whose socket stays silent this long fails as BLOB.UNAVAILABLE; default 60 s. */
  idleTimeoutMs?: number;
}

export interface MinioBlobStoreSettings {
  endPoint: string;
  port: number;
  useSSL: boolean;
  accessKey: string;
  secretKey: string;
  bucket: string;
  prefix: string;
  region: string;
  partSize: number;
  idleTimeoutMs: number;
}

const MiB = 1024 * 1024;
const MIN_PART = 5 * MiB;
const MAX_PART = 512 * MiB;
// S3's bucket naming rules, simplified: lower case, digits, dots and hyphens, 3 to 63 characters.
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** Validates everything before any connection opens, and reports every problem in one ConfigError. */
export function resolveMinioBlobStoreOptions(options: MinioBlobStoreOptions): MinioBlobStoreSettings {
  const given = (options ?? {}) as Partial<MinioBlobStoreOptions>;
  const problems: string[] = [];

  let url: URL | undefined;
  try {
    url = new URL(String(given.endpoint));
    if (url.protocol !== 'http:' && url.protocol !== 'https:') problems.push(`endpoint must be an http or https URL, got "${given.endpoint}"`);
    if (url.pathname !== '/' && url.pathname !== '') problems.push(`endpoint must not have a path (path-style bucket URLs are built by the client), got "${given.endpoint}"`);
  } catch {
    problems.push(`endpoint must be a URL like http://127.0.0.1:9000, got "${String(given.endpoint)}"`);
  }
  for (const name of ['accessKey', 'secretKey'] as const) {
    if (typeof given[name] !== 'string' || given[name] === '') problems.push(`${name} must be a non-empty string`);
  }
  const bucket = String(given.bucket ?? '');
  if (!BUCKET.test(bucket) || bucket.includes('..')) problems.push(`bucket must be a valid S3 bucket name (3-63 of a-z 0-9 . -), got "${bucket}"`);
  const prefix = given.prefix ?? '';
  if (typeof prefix !== 'string' || (prefix !== '' && (!prefix.endsWith('/') || prefix.startsWith('/') || prefix.split('/').slice(0, -1).some((s) => s === '' || s === '.' || s === '..')))) {
    problems.push(`prefix must be empty or like "memory/" (no leading "/", ends with "/"), got "${String(prefix)}"`);
  }
  const partSize = given.partSize ?? 8 * MiB;
  if (!Number.isInteger(partSize) || partSize < MIN_PART || partSize > MAX_PART) problems.push(`partSize must be a whole number of bytes from ${MIN_PART} to ${MAX_PART}, got ${String(partSize)}`);
  const idleTimeoutMs = given.idleTimeoutMs ?? 60_000;
  if (!Number.isInteger(idleTimeoutMs) || idleTimeoutMs < 100) problems.push(`idleTimeoutMs must be a whole number of at least 100, got ${String(idleTimeoutMs)}`);

  if (problems.length || !url) throw new ConfigError(`invalid MinIO blob store options:\n  - ${problems.join('\n  - ')}`, { problems });
  const useSSL = url.protocol === 'https:';
  return {
    endPoint: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : useSSL ? 443 : 80,
    useSSL,
    accessKey: given.accessKey!,
    secretKey: given.secretKey!,
    bucket,
    prefix,
    region: given.region ?? 'us-east-1',
    partSize,
    idleTimeoutMs,
  };
}

/** The options from MEMORY_S3_* variables, with the local engine's values (`npm run engines:up minio`) as defaults. */
export function minioBlobStoreOptionsFromEnv(env: Record<string, string | undefined> = process.env): MinioBlobStoreOptions {
  const config = new ConfigReader(env);
  const options: MinioBlobStoreOptions = {
    endpoint: config.string('MEMORY_S3_ENDPOINT', 'http://127.0.0.1:9000'),
    accessKey: config.string('MEMORY_S3_ACCESS_KEY', 'memory-local'),
    secretKey: config.string('MEMORY_S3_SECRET_KEY', 'memory-local-secret'),
    bucket: config.string('MEMORY_S3_BUCKET', 'memory-blobs'),
    prefix: config.string('MEMORY_S3_PREFIX', ''),
    region: config.string('MEMORY_S3_REGION', 'us-east-1'),
  };
  config.done();
  return options;
}
