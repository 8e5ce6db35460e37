import { createHash, randomBytes } from 'node:crypto';
import { ConfigError, RequestError } from '@memory/platform';

/** An API key stands for a tenant. Only SHA-256 hashes of keys are kept; keys themselves are never stored or logged. */
export interface ApiKeyRegistry {
  tenantOf(apiKey: string): string | null;
  size: number;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function createApiKeyRegistry(hashToTenant: Map<string, string>): ApiKeyRegistry {
  return {
    tenantOf: (key) => hashToTenant.get(hashApiKey(key)) ?? null,
    size: hashToTenant.size,
  };
}

const TENANT = /^[A-Za-z0-9._-]{1,64}$/;

/** Parses MEMORY_API_KEYS: comma-separated key:tenant pairs. */
export function parseApiKeys(spec: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const pair of spec.split(',').map((p) => p.trim()).filter(Boolean)) {
    const at = pair.lastIndexOf(':');
    const key = pair.slice(0, at);
    const tenant = pair.slice(at + 1);
    if (at <= 0 || key.length < 16 || !TENANT.test(tenant)) {
      throw new ConfigError('MEMORY_API_KEYS must be comma-separated key:tenant pairs, keys of at least 16 characters, tenants of letters, digits, . _ -');
    }
    map.set(hashApiKey(key), tenant);
  }
  return map;
}

export function generateApiKey(): string {
  return `mk_dev_${randomBytes(24).toString('base64url')}`;
}

/** Reads the bearer token of a request and returns its tenant, or throws 401 with what to send instead. */
export function authenticate(registry: ApiKeyRegistry, authorization: string | undefined): string {
  if (!authorization) throw new RequestError(401, 'AUTH.MISSING_KEY', 'send Authorization: Bearer <API_KEY>');
  const match = /^Bearer\s+(\S+)$/i.exec(authorization);
  if (!match) throw new RequestError(401, 'AUTH.MALFORMED', 'the Authorization header must be "Bearer <API_KEY>"');
  const tenant = registry.tenantOf(match[1]!);
  if (!tenant) throw new RequestError(401, 'AUTH.INVALID_KEY', 'the API key is not known: check MEMORY_API_KEYS, or the development key printed at first start');
  return tenant;
}
