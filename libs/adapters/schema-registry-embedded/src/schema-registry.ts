import { mkdir } from 'node:fs/promises';
import avro from 'avsc';
import { open, type Database, type RootDatabase } from 'lmdb';
import { ConfigError, handleFailedCommits, MemoryServiceError } from '@memory/platform';
import type { SchemaRegistry } from '@memory/ports';
import { parseSchema } from '@memory/contracts';
import { COMPATIBILITY_LEVELS, incompatibility, type CompatibilityLevel } from './compatibility.js';

export interface EmbeddedSchemaRegistryOptions {
  /** Directory of the LMDB environment; created if missing. Several processes may share it. */
  dir: string;
  /** Checked against the latest version of a subject on every new version. Default BACKWARD, as Confluent's. */
  compatibility?: CompatibilityLevel;
}

type VersionKey = [subject: string, version: number];
type SubjectIdKey = [subject: string, id: number];

export async function createEmbeddedSchemaRegistry(options: EmbeddedSchemaRegistryOptions): Promise<SchemaRegistry> {
  const compatibility = options.compatibility ?? 'BACKWARD';
  const problems: string[] = [];
  if (typeof options.dir !== 'string' || options.dir.trim() === '') problems.push('dir must be a non-empty path');
  if (!COMPATIBILITY_LEVELS.includes(compatibility)) problems.push(`compatibility must be one of ${COMPATIBILITY_LEVELS.join(', ')}, got ${String(compatibility)}`);
  if (problems.length) throw new ConfigError(`invalid embedded schema registry options: ${problems.join('; ')}`, { problems });
  await mkdir(options.dir, { recursive: true });
  return new EmbeddedSchemaRegistry(handleFailedCommits(open({ path: options.dir, overlappingSync: false, maxDbs: 4 })), compatibility);
}

/**
 * Subjects, versions and global ids in LMDB:
 *   schemas         id -> canonical schema text (ids count up from 1, as Confluent's do)
 *   fingerprints    sha-256 of the canonical text -> id (the same schema under any subject has one id)
 *   versions        [subject, version] -> id
 *   subjectIds      [subject, id] -> version (so re-registering is a lookup)
 * Registration runs as one LMDB transaction callback: reads and writes are serialised by LMDB's write lock, so
 * concurrent registrations, even from several processes, cannot hand out one id twice. overlappingSync is off,
 * so a resolved register() is already fsynced.
 */
class EmbeddedSchemaRegistry implements SchemaRegistry {
  private readonly schemas: Database<string, number>;
  private readonly fingerprints: Database<number, string>;
  private readonly versionIds: Database<number, VersionKey>;
  private readonly subjectIds: Database<number, SubjectIdKey>;
  private readonly types = new Map<number, avro.Type>();
  private closed = false;

  constructor(
    private readonly env: RootDatabase,
    private readonly compatibility: CompatibilityLevel,
  ) {
    this.schemas = env.openDB<string, number>('schemas', { encoding: 'string' });
    this.fingerprints = env.openDB<number, string>('fingerprints', { encoding: 'json' });
    this.versionIds = env.openDB<number, VersionKey>('versions', { encoding: 'json' });
    this.subjectIds = env.openDB<number, SubjectIdKey>('subjectIds', { encoding: 'json' });
  }

  async register(subject: string, schema: string): Promise<number> {
    this.assertOpen();
    checkSubject(subject);
    const parsed = parseSchema(schema);
    const known = this.fingerprints.get(parsed.fingerprint);
    if (known !== undefined && this.subjectIds.get([subject, known]) !== undefined) return known; // nothing to write

    return this.env.transaction(() => {
      const existing = this.fingerprints.get(parsed.fingerprint);
      if (existing !== undefined && this.subjectIds.get([subject, existing]) !== undefined) return existing;
      const latest = this.latestOf(subject);
      if (latest && this.compatibility !== 'NONE') {
        const why = incompatibility(this.compatibility, this.typeOf(latest.id), parsed.type);
        if (why) {
          throw new MemoryServiceError('REGISTRY.INCOMPATIBLE', `schema for ${subject} is not ${this.compatibility} compatible with version ${latest.version}: ${why}`, {
            details: { subject, latestVersion: latest.version, compatibility: this.compatibility },
          });
        }
      }
      // Everything that can refuse has run: a throw after a put would leave half a registration in the batch.
      let id = existing;
      if (id === undefined) {
        id = this.lastId() + 1;
        this.schemas.put(id, parsed.canonical);
        this.fingerprints.put(parsed.fingerprint, id);
      }
      const version = (latest?.version ?? 0) + 1;
      this.versionIds.put([subject, version], id);
      this.subjectIds.put([subject, id], version);
      return id;
    });
  }

  async schemaById(id: number): Promise<string> {
    this.assertOpen();
    const schema = Number.isInteger(id) ? this.schemas.get(id) : undefined;
    if (schema === undefined) throw notFound(`no schema with id ${id}`, { id });
    return schema;
  }

  async versions(subject: string): Promise<number[]> {
    this.assertOpen();
    const versions = [...this.versionIds.getKeys({ start: [subject], end: [subject, Infinity] })].map((key) => key[1]);
    if (versions.length === 0) throw notFound(`no subject ${subject}`, { subject });
    return versions;
  }

  async schemaByVersion(subject: string, version: number | 'latest'): Promise<{ id: number; version: number; schema: string }> {
    this.assertOpen();
    let found: { id: number; version: number } | undefined;
    if (version === 'latest') {
      found = this.latestOf(subject);
      if (!found) throw notFound(`no subject ${subject}`, { subject });
    } else {
      if (!Number.isInteger(version) || version < 1) throw new MemoryServiceError('REGISTRY.INVALID_VERSION', `a version is 'latest' or a whole number >= 1, got ${version}`);
      const id = this.versionIds.get([subject, version]);
      if (id === undefined) throw notFound(`no version ${version} of subject ${subject}`, { subject, version });
      found = { id, version };
    }
    return { ...found, schema: await this.schemaById(found.id) };
  }

  async subjects(): Promise<string[]> {
    this.assertOpen();
    const subjects: string[] = [];
    for (const [subject] of this.versionIds.getKeys()) if (subjects[subjects.length - 1] !== subject) subjects.push(subject);
    return subjects;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.env.close();
  }

  private latestOf(subject: string): { id: number; version: number } | undefined {
    for (const { key, value } of this.versionIds.getRange({ start: [subject, Infinity], end: [subject], reverse: true, limit: 1 })) {
      return { version: key[1], id: value };
    }
    return undefined;
  }

  private lastId(): number {
    for (const id of this.schemas.getKeys({ reverse: true, limit: 1 })) return id;
    return 0;
  }

  private typeOf(id: number): avro.Type {
    let type = this.types.get(id);
    if (!type) {
      const schema = this.schemas.get(id);
      if (schema === undefined) throw notFound(`no schema with id ${id}`, { id });
      type = avro.Type.forSchema(JSON.parse(schema) as avro.Schema);
      this.types.set(id, type);
    }
    return type;
  }

  private assertOpen(): void {
    if (this.closed) throw new MemoryServiceError('REGISTRY.CLOSED', 'the schema registry is closed');
  }
}

function checkSubject(subject: string): void {
  if (typeof subject !== 'string' || subject === '') throw new MemoryServiceError('REGISTRY.INVALID_SUBJECT', 'a subject is a non-empty string');
}

function notFound(message: string, details: Record<string, unknown>): MemoryServiceError {
  return new MemoryServiceError('REGISTRY.NOT_FOUND', message, { details });
}
