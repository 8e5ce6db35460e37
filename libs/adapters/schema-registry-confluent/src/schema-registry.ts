import { parseSchema } from '@memory/contracts';
import { MemoryServiceError } from '@memory/platform';
import type { SchemaRegistry } from '@memory/ports';
import { RegistryHttp } from './http.js';
import type { CompatibilityLevel, ConfluentSchemaRegistrySettings } from './options.js';

interface VersionBody {
  id: number;
  version: number;
  schema: string;
}

/**
 * The SchemaRegistry port over the Confluent REST API (Confluent's server, Apicurio's ccompat API, Karapace...).
 * Ids, schema texts and numbered versions never change once the registry has handed them out, so they are kept
 * in memory; only 'latest', the version lists and the subject list are asked for every time.
 */
export class ConfluentSchemaRegistry implements SchemaRegistry {
  private readonly http: RegistryHttp;
  private readonly registered = new Map<string, Promise<number>>();
  private readonly schemas = new Map<number, string>();
  private readonly numberedVersions = new Map<string, VersionBody>();
  private readonly configured = new Set<string>();
  private writes: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly settings: ConfluentSchemaRegistrySettings) {
    this.http = new RegistryHttp(settings);
  }

  async register(subject: string, schema: string): Promise<number> {
    this.assertOpen();
    checkSubject(subject);
    // One form for every layout of a schema (keys sorted, field order kept): "same schema, same id" holds even on a
    // registry that compares raw text, and nothing our readers cannot parse is ever stored.
    const { canonical } = parseSchema(schema);
    const key = `${subject}\u0000${canonical}`;
    let id = this.registered.get(key);
    if (!id) {
      // One request per schema and subject however many callers ask at once; a failure is not remembered.
      id = this.serialized(() => withTransientRetries(() => this.registerOnce(subject, canonical)));
      id.catch(() => this.registered.delete(key));
      this.registered.set(key, id);
    }
    return id;
  }

  async schemaById(id: number): Promise<string> {
    this.assertOpen();
    const known = this.schemas.get(id);
    if (known !== undefined) return known;
    if (!Number.isInteger(id) || id < 0) throw new MemoryServiceError('REGISTRY.NOT_FOUND', `no schema with id ${id}`, { details: { id } });
    const body = await this.http.request<{ schema?: unknown }>('GET', `/schemas/ids/${id}`, `reading schema ${id}`);
    const schema = expectString(body.schema, `the schema of id ${id}`);
    this.schemas.set(id, schema);
    return schema;
  }

  async versions(subject: string): Promise<number[]> {
    this.assertOpen();
    checkSubject(subject);
    const body = await this.http.request<unknown>('GET', `/subjects/${encodeURIComponent(subject)}/versions`, `listing the versions of ${subject}`);
    if (!Array.isArray(body) || !body.every((v) => Number.isInteger(v))) throw badResponse(`the versions of ${subject}`, body);
    return (body as number[]).sort((a, b) => a - b);
  }

  async schemaByVersion(subject: string, version: number | 'latest'): Promise<{ id: number; version: number; schema: string }> {
    this.assertOpen();
    checkSubject(subject);
    if (version !== 'latest' && (!Number.isInteger(version) || version < 1)) {
      throw new MemoryServiceError('REGISTRY.INVALID_VERSION', `a version is 'latest' or a whole number >= 1, got ${version}`);
    }
    const cacheKey = `${subject}\u0000${version}`;
    const known = this.numberedVersions.get(cacheKey);
    if (known) return { ...known };
    const what = `reading version ${version} of ${subject}`;
    const body = await this.http.request<Partial<VersionBody>>('GET', `/subjects/${encodeURIComponent(subject)}/versions/${version}`, what);
    const found: VersionBody = {
      id: expectInteger(body.id, `the id in ${what}`),
      version: expectInteger(body.version, `the version in ${what}`),
      schema: expectString(body.schema, `the schema in ${what}`),
    };
    this.numberedVersions.set(`${subject}\u0000${found.version}`, found);
    this.schemas.set(found.id, found.schema);
    return { ...found };
  }

  async subjects(): Promise<string[]> {
    this.assertOpen();
    const body = await this.http.request<unknown>('GET', '/subjects', 'listing subjects');
    if (!Array.isArray(body) || !body.every((s) => typeof s === 'string')) throw badResponse('the subject list', body);
    return body as string[];
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.http.close();
  }

  /**
   * Registrations from this client go one at a time. Writes are rare (a few schemas at start), and registries
   * on an embedded database (Apicurio on H2) fail concurrent ones with duplicate ids or lock timeouts.
   */
  private serialized<T>(task: () => Promise<T>): Promise<T> {
    const run = this.writes.then(task, task);
    this.writes = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private async registerOnce(subject: string, schema: string): Promise<number> {
    const level = this.settings.compatibility;
    // Set before the first version where the registry allows it (Confluent; Apicurio for every level but NONE),
    // so no version slips in unchecked; a registry that answers "no such subject" gets it right after.
    const configuredFirst = level !== false && (await this.configure(subject, level));
    const what = `registering a schema under ${subject}`;
    const body = await this.http.request<{ id?: unknown }>('POST', `/subjects/${encodeURIComponent(subject)}/versions`, what, { schema });
    const id = expectInteger(body.id, `the id in ${what}`);
    if (level !== false && !configuredFirst && !(await this.configure(subject, level))) {
      // Apicurio stores NONE as "no rule of the subject's own", which it cannot remove when there is none.
      throw new MemoryServiceError('REGISTRY.REJECTED', `the registry would not set compatibility ${level} on ${subject}, even once it existed`, {
        details: { subject, compatibility: level },
      });
    }
    if (!this.schemas.has(id)) this.schemas.set(id, schema);
    return id;
  }

  /** PUT /config/<subject>, once per subject and client; false when the registry has no such subject yet. */
  private async configure(subject: string, level: CompatibilityLevel): Promise<boolean> {
    if (this.configured.has(subject)) return true;
    try {
      await this.http.request('PUT', `/config/${encodeURIComponent(subject)}`, `setting the compatibility of ${subject} to ${level}`, { compatibility: level });
    } catch (error) {
      if ((error as { code?: unknown }).code === 'REGISTRY.NOT_FOUND') return false;
      throw error;
    }
    this.configured.add(subject);
    return true;
  }

  private assertOpen(): void {
    if (this.closed) throw new MemoryServiceError('REGISTRY.CLOSED', 'the schema registry client is closed');
  }
}

const TRANSIENT_ATTEMPTS = 4;
const TRANSIENT_BASE_DELAY_MS = 150;

/**
 * Registering is idempotent, so a registry-side failure (5xx: a lost race between two writers on the registry's
 * storage, a restart) is tried again a few times here, with growing jittered pauses, before the caller sees it.
 * The last error is thrown as it is, code and retriable flag intact, for the caller's own retry policy.
 */
async function withTransientRetries<T>(task: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await task();
    } catch (error) {
      const status = (error as MemoryServiceError).details?.['status'];
      const transient = error instanceof MemoryServiceError && error.code === 'REGISTRY.UNAVAILABLE' && typeof status === 'number' && status >= 500;
      if (!transient || attempt >= TRANSIENT_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, TRANSIENT_BASE_DELAY_MS * 2 ** (attempt - 1) * (0.5 + Math.random())));
    }
  }
}

function checkSubject(subject: string): void {
  if (typeof subject !== 'string' || subject === '') throw new MemoryServiceError('REGISTRY.INVALID_SUBJECT', 'a subject is a non-empty string');
}

function expectInteger(value: unknown, what: string): number {
  if (!Number.isInteger(value)) throw badResponse(what, value);
  return value as number;
}

function expectString(value: unknown, what: string): string {
  if (typeof value !== 'string') throw badResponse(what, value);
  return value;
}

function badResponse(what: string, value: unknown): MemoryServiceError {
  return new MemoryServiceError('REGISTRY.BAD_RESPONSE', `unexpected answer from the schema registry for ${what}: ${JSON.stringify(value)?.slice(0, 200)}`);
}
