import { ConfigError, ConfigReader } from '@memory/platform';

/** Confluent's compatibility levels; the _TRANSITIVE ones check every earlier version, not only the latest. */
export type CompatibilityLevel = 'BACKWARD' | 'BACKWARD_TRANSITIVE' | 'FORWARD' | 'FORWARD_TRANSITIVE' | 'FULL' | 'FULL_TRANSITIVE' | 'NONE';

export const COMPATIBILITY_LEVELS: readonly CompatibilityLevel[] = ['BACKWARD', 'BACKWARD_TRANSITIVE', 'FORWARD', 'FORWARD_TRANSITIVE', 'FULL', 'FULL_TRANSITIVE', 'NONE'];

export const DEFAULT_SCHEMA_REGISTRY_URL = 'http://127.0.0.1:8081/apis/ccompat/v7';

export interface ConfluentSchemaRegistryOptions {
  /**
   * Base URL of the Confluent REST API: http://host:8081 for Confluent's own server, the ccompat path for others
   * (the local Apicurio engine: http://127.0.0.1:8081/apis/ccompat/v7).
   */
  url: string;
  /**
   * Set on each subject this adapter registers into, so the registry refuses changes that break readers whatever
   * its global default is. Default BACKWARD (consumers upgrade first). `false` leaves the registry's own
   * configuration alone, for registries whose compatibility is managed by someone else.
   */
  compatibility?: CompatibilityLevel | false;
  /** Basic auth (Confluent Cloud API key and secret, or a proxy in front of the registry). */
  username?: string;
  password?: string;
  /** One request that takes longer fails as REGISTRY.UNAVAILABLE (retriable); default 10 s. */
  requestTimeoutMs?: number;
}

export interface ConfluentSchemaRegistrySettings {
  /** Without a trailing slash, so paths append with "/". */
  baseUrl: string;
  compatibility: CompatibilityLevel | false;
  authorization: string | undefined;
  requestTimeoutMs: number;
}

/** Validates everything before any request is sent and reports every problem in one ConfigError. */
export function resolveConfluentSchemaRegistryOptions(options: ConfluentSchemaRegistryOptions): ConfluentSchemaRegistrySettings {
  const given = (options ?? {}) as Partial<ConfluentSchemaRegistryOptions>;
  const problems: string[] = [];

  let baseUrl = '';
  try {
    const url = new URL(String(given.url));
    if (url.protocol !== 'http:' && url.protocol !== 'https:') problems.push(`url must be an http or https URL, got "${given.url}"`);
    if (url.search || url.hash) problems.push(`url must not have a query or fragment, got "${given.url}"`);
    if (url.username || url.password) problems.push('url must not carry credentials; use username and password');
    baseUrl = url.href.replace(/\/+$/, '');
  } catch {
    problems.push(`url must be a URL like ${DEFAULT_SCHEMA_REGISTRY_URL}, got "${String(given.url)}"`);
  }

  const compatibility = given.compatibility ?? 'BACKWARD';
  if (compatibility !== false && !COMPATIBILITY_LEVELS.includes(compatibility)) {
    problems.push(`compatibility must be false or one of ${COMPATIBILITY_LEVELS.join(', ')}, got ${String(compatibility)}`);
  }

  const { username, password } = given;
  if ((username === undefined) !== (password === undefined)) problems.push('username and password go together: give both or neither');
  for (const [name, value] of [['username', username], ['password', password]] as const) {
    if (value !== undefined && (typeof value !== 'string' || value === '')) problems.push(`${name} must be a non-empty string`);
  }
  if (typeof username === 'string' && username.includes(':')) problems.push('username must not contain ":" (basic auth separates it from the password with one)');

  const requestTimeoutMs = given.requestTimeoutMs ?? 10_000;
  if (!Number.isInteger(requestTimeoutMs) || requestTimeoutMs < 100) problems.push(`requestTimeoutMs must be a whole number of at least 100, got ${String(requestTimeoutMs)}`);

  if (problems.length) throw new ConfigError(`invalid Confluent schema registry options:\n  - ${problems.join('\n  - ')}`, { problems });
  return {
    baseUrl,
    compatibility,
    authorization: username === undefined ? undefined : `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`,
    requestTimeoutMs,
  };
}

/**
 * The options from MEMORY_SCHEMA_REGISTRY_* variables, with the local engine's URL (`npm run engines:up registry`)
 * as the default. The service's configuration reads them through this too (its own ConfigReader, so every problem
 * is reported in one message).
 */
export function readConfluentSchemaRegistryOptions(config: ConfigReader): ConfluentSchemaRegistryOptions {
  const compatibility = config.oneOf('MEMORY_SCHEMA_REGISTRY_COMPATIBILITY', [...COMPATIBILITY_LEVELS, 'REGISTRY'] as const, 'BACKWARD');
  const options: ConfluentSchemaRegistryOptions = {
    url: config.string('MEMORY_SCHEMA_REGISTRY_URL', DEFAULT_SCHEMA_REGISTRY_URL),
    // "REGISTRY": leave compatibility to whoever runs the registry.
    compatibility: compatibility === 'REGISTRY' ? false : compatibility,
    requestTimeoutMs: config.integer('MEMORY_SCHEMA_REGISTRY_TIMEOUT_MS', 10_000, { min: 100 }),
  };
  const username = config.string('MEMORY_SCHEMA_REGISTRY_USERNAME');
  const password = config.string('MEMORY_SCHEMA_REGISTRY_PASSWORD');
  if (username !== undefined) options.username = username;
  if (password !== undefined) options.password = password;
  return options;
}

export function confluentSchemaRegistryOptionsFromEnv(env: Record<string, string | undefined> = process.env): ConfluentSchemaRegistryOptions {
  const config = new ConfigReader(env);
  const options = readConfluentSchemaRegistryOptions(config);
  config.done();
  return options;
}
