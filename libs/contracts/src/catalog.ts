import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** Where the versioned Avro schemas live: schemas/<event>/v<N>.avsc with v<N>.fixture.json beside each. */
export const SCHEMAS_DIR = fileURLToPath(new URL('../../../schemas', import.meta.url));

/** Every event of the pipeline, the topic it travels on, and the schema folder that defines it. */
export const EVENTS = {
  ingestRequested: { schema: 'ingest-requested', topic: 'memory.ingest.requested' },
  resolved: { schema: 'resolved', topic: 'memory.resolved' },
  enriched: { schema: 'enriched', topic: 'memory.enriched' },
  committed: { schema: 'committed', topic: 'memory.committed' },
  centroidUpdated: { schema: 'centroid-updated', topic: 'user.centroid.updated' },
  jobStatus: { schema: 'job-status', topic: 'job.status' },
  deadLetter: { schema: 'dead-letter', topic: 'memory.dead-letter' },
  forgetRequested: { schema: 'forget-requested', topic: 'memory.forget.requested' },
} as const;

export type EventName = keyof typeof EVENTS;
export const TOPICS = Object.fromEntries(Object.entries(EVENTS).map(([name, e]) => [name, e.topic])) as { [K in EventName]: (typeof EVENTS)[K]['topic'] };

/** Partitions per topic in both modes; keys are tenant/endUser so one user's events stay in order. */
export const DEFAULT_PARTITIONS = 8;

/** Confluent TopicNameStrategy: the subject of a topic's values. */
export function subjectOf(topic: string): string {
  return `${topic}-value`;
}

export interface SchemaVersion {
  version: number;
  schema: Record<string, unknown>;
  fixture: unknown;
}

/** All versions of one event's schema, oldest first. */
export function schemaVersions(schemaFolder: string): SchemaVersion[] {
  const dir = join(SCHEMAS_DIR, schemaFolder);
  return readdirSync(dir)
    .map((file) => /^v(\d+)\.avsc$/.exec(file))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b)
    .map((version) => ({
      version,
      schema: JSON.parse(readFileSync(join(dir, `v${version}.avsc`), 'utf8')) as Record<string, unknown>,
      fixture: JSON.parse(readFileSync(join(dir, `v${version}.fixture.json`), 'utf8')) as unknown,
    }));
}

/** The newest schema of an event: what producers write. */
export function latestSchema(name: EventName): Record<string, unknown> {
  const versions = schemaVersions(EVENTS[name].schema);
  const latest = versions[versions.length - 1];
  if (!latest) throw new Error(`no schema versions under schemas/${EVENTS[name].schema}`);
  return latest.schema;
}
