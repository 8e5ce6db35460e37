import type { estypes } from '@elastic/elasticsearch';
import { EXPUNGE_EVERY_DELETION } from './delayed-expunge.js';
import { indexNames } from './names.js';
import type { ElasticsearchStoresSettings } from './options.js';

/**
 * Bumped whenever a mapping below changes; stored as the template's version and in the index _meta. An index of an
 * older version gets the fields it lacks when the stores open (migrate.ts). 2: lexicalTerms and identifiers. 3: metadataText
 * (no document before it has metadata, so there is nothing to fill). 4: endUserId of webhook deliveries (those from
 * before carry none; the delivery log's retention removes them). 5: vectorBytes (filled from each memory's vector).
 * 6: timesBytes (filled from each memory's creation and event times). 7: the memories, keys and centroids indices
 * expunge every deleted document (a dynamic setting, put on older indices as they migrate). 8: jobId of idempotency
 * records (filled from each record's _source, or its answer), so forgetting a job finds its records. 9: the jobs,
 * idempotency and webhook indices expunge every deleted document too (what forgetting deletes there can name a file);
 * jobId and jobAcceptedAt of webhook deliveries (filled from each delivery's body), so forgetting a job finds its
 * deliveries and an erasure those of the jobs accepted before it. 10: generation of centroid members (those written
 * before it belong to no generation, which the centroids written before it name: nothing to fill).
 */
export const SCHEMA_VERSION = 10;

export interface IndexTemplate {
  /** The template's name, also the name of the one index it matches. */
  name: string;
  request: estypes.IndicesPutIndexTemplateRequest;
  /** Dynamic settings of the template that an index created before them is given when it migrates. */
  migratedSettings?: estypes.IndicesIndexSettings;
}

const keyword: estypes.MappingProperty = { type: 'keyword' };
const date: estypes.MappingProperty = { type: 'date', format: 'epoch_millis' };
const integer: estypes.MappingProperty = { type: 'integer' };

/**
 * The mapping of a memory document. `dynamic: false` keeps a field that MemoryRecord gains later in _source (so it
 * is stored and read back at once) without indexing it until this mapping names it. Fields that only the adapter
 * writes (eventRanges, lexicalTerms, identifiers) are dropped again when a document becomes a MemoryRecord.
 */
export function memoryMapping(settings: Pick<ElasticsearchStoresSettings, 'dims' | 'hnsw'>): estypes.MappingTypeMapping {
  return {
    dynamic: false,
    _meta: { schemaVersion: SCHEMA_VERSION, dims: settings.dims },
    _source: { excludes: ['vectorBytes', 'timesBytes'] },
    properties: {
      id: keyword,
      tenantId: keyword,
      endUserId: keyword,
      jobId: keyword,
      kind: keyword,
      partIndex: integer,
      partCount: integer,
      // The standard analyser is the one the server has without the analysis-common module.
      content: { type: 'text' },
      originalContent: { type: 'text' },
      userContext: { type: 'text' },
      memoryType: keyword,
      themes: keyword,
      synonyms: keyword,
      keywords: keyword,
      entities: { properties: { name: keyword, type: keyword, key: keyword } },
      sentiment: keyword,
      sentimentScore: { type: 'float' },
      movieGenre: keyword,
      mentionedTitles: keyword,
      createdAt: date,
      acceptedAt: date,
      // The resolved mentions as written, for reading back; searched through eventRanges.
      eventTimes: { type: 'object', enabled: false },
      // One range per mention, [start, end) or the instant [start, start], so a time filter is one range query.
      eventRanges: { type: 'date_range', format: 'epoch_millis' },
      // memoryTerms of @memory/lexical, joined by spaces: the terms arrive analysed (the same function serves the
      // embedded index), so the whitespace analyser (a core one) only splits them. Default similarity: BM25, k1 1.2,
      // b 0.75, as the embedded index. No positions: nothing searches phrases here.
      lexicalTerms: { type: 'text', analyzer: 'whitespace', index_options: 'freqs' },
      // memoryIdentifiers: the memory's own id, its job's id and the codes written in it, lower-cased.
      identifiers: keyword,
      // The client's metadata, each value in its string form (metadataTexts of @memory/ports), for equality filters
      // in listings: one flattened field takes any key without a mapping per key. The metadata itself, with its
      // value types, is read back from _source.
      metadataText: { type: 'flattened' },
      embeddingModel: keyword,
      vector: {
        type: 'dense_vector',
        dims: settings.dims,
        index: true,
        similarity: 'cosine',
        // Plain float HNSW: exact cosine scores. int8_hnsw (the 8.14+ default) would cut vector memory by 4 at the
        // cost of quantised scores.
        index_options: { type: 'hnsw', m: settings.hnsw.m, ef_construction: settings.hnsw.efConstruction },
      },
      // The vector again, as a doc value: the candidates' vectors a reranker compares are read from the column
      // store, where reading `vector` from _source means fetching and parsing each document (README, "The fetch
      // phase"). Not kept in _source: it would only add to every document read.
      vectorBytes: { type: 'binary', doc_values: true },
      // The creation and event times, as a doc value: a time range's search reads them for many memories at once.
      timesBytes: { type: 'binary', doc_values: true },
    },
  };
}

/** One document per end user: the running centroid and the member ids of its last save (see centroid-store.ts). */
export function centroidMapping(): estypes.MappingTypeMapping {
  return {
    dynamic: false,
    _meta: { schemaVersion: SCHEMA_VERSION },
    properties: {
      tenantId: keyword,
      endUserId: keyword,
      embeddingModel: keyword,
      memoryCount: integer,
      similaritySum: { type: 'double' },
      // sum and pendingMembers live in _source only: they are read by id, never searched.
    },
  };
}

/**
 * One document per (end user, memory id, generation) folded into the centroid; its version and share live in _source
 * only. The generation is searched to drop what a replaced centroid counted.
 */
export function centroidMemberMapping(): estypes.MappingTypeMapping {
  return {
    dynamic: false,
    _meta: { schemaVersion: SCHEMA_VERSION },
    properties: { tenantId: keyword, endUserId: keyword, memoryId: keyword, generation: keyword },
  };
}

/** One document per job; memoryIds and reason live in _source only. */
export function jobMapping(): estypes.MappingTypeMapping {
  return {
    dynamic: false,
    _meta: { schemaVersion: SCHEMA_VERSION },
    properties: {
      jobId: keyword,
      tenantId: keyword,
      endUserId: keyword,
      state: keyword,
      stage: keyword,
      partCount: integer,
      errorCode: keyword,
      acceptedAt: date,
      updatedAt: date,
    },
  };
}

/** Data keys, tombstones of forgotten subjects and erasures. The key itself lives in _source only. */
export function keyMapping(): estypes.MappingTypeMapping {
  return {
    dynamic: false,
    _meta: { schemaVersion: SCHEMA_VERSION },
    properties: {
      kind: keyword,
      tenantId: keyword,
      endUserId: keyword,
      keyId: keyword,
      acceptedAt: { type: 'long' },
    },
  };
}

/**
 * One document per (tenant, end user, Idempotency-Key); fingerprint, lease and response live in _source only. The job
 * the request created is indexed so that forgetting the job finds its records.
 */
export function idempotencyMapping(): estypes.MappingTypeMapping {
  return {
    dynamic: false,
    _meta: { schemaVersion: SCHEMA_VERSION },
    properties: { tenantId: keyword, endUserId: keyword, expiresAt: date, jobId: keyword },
  };
}

/** Webhook endpoints, found by tenant; url, events and secrets live in _source only. */
export function webhookMapping(): estypes.MappingTypeMapping {
  return { dynamic: false, _meta: { schemaVersion: SCHEMA_VERSION }, properties: { tenantId: keyword, id: keyword, createdAt: { type: 'long' } } };
}

/**
 * Webhook deliveries: the log of an endpoint (by creation), the due queue (pending, by next attempt), and what
 * forgetting selects (by job, by the job's accept time).
 */
export function webhookDeliveryMapping(): estypes.MappingTypeMapping {
  return {
    dynamic: false,
    _meta: { schemaVersion: SCHEMA_VERSION },
    properties: {
      tenantId: keyword,
      endUserId: keyword,
      webhookId: keyword,
      endpointKey: keyword,
      id: keyword,
      state: keyword,
      nextAttemptAt: { type: 'long' },
      createdAt: { type: 'long' },
      jobId: keyword,
      jobAcceptedAt: { type: 'long' },
    },
  };
}

function indexSettings(settings: ElasticsearchStoresSettings, extra: estypes.IndicesIndexSettings = {}): estypes.IndicesIndexSettings {
  return {
    number_of_shards: settings.shards,
    ...(settings.replicas === null ? { auto_expand_replicas: '0-1' } : { number_of_replicas: settings.replicas }),
    ...extra,
  };
}

function template(name: string, settings: estypes.IndicesIndexSettings, mappings: estypes.MappingTypeMapping, migratedSettings?: estypes.IndicesIndexSettings): IndexTemplate {
  return {
    name,
    ...(migratedSettings ? { migratedSettings } : {}),
    request: {
      name,
      // The exact index name as the only pattern: templates of two prefixes can never overlap.
      index_patterns: [name],
      // Above the built-in templates (priority 100), so a wildcard template of the cluster cannot shadow this one.
      priority: 500,
      version: SCHEMA_VERSION,
      _meta: { managedBy: '@memory/stores-elasticsearch' },
      template: { settings, mappings },
    },
  };
}

/** The template of an index whose deleted documents an expunging merge must take, new or migrated. */
function expunging(name: string, settings: ElasticsearchStoresSettings, mappings: estypes.MappingTypeMapping): IndexTemplate {
  return template(name, indexSettings(settings, EXPUNGE_EVERY_DELETION), mappings, EXPUNGE_EVERY_DELETION);
}

/**
 * The composable index templates of every index of one prefix. An index is created from its template, and one
 * deleted by hand comes back with the right mapping when the next write creates it again.
 */
export function indexTemplates(settings: ElasticsearchStoresSettings): IndexTemplate[] {
  const names = indexNames(settings.prefix);
  return [
    // An explicit refresh interval also keeps the index from going search-idle, so 'wait_for' never waits longer.
    // What forgetting deletes from these can hold content or name a file, so it is expunged (DelayedExpunge); the
    // centroid members hold ids only.
    template(names.memories, indexSettings(settings, { refresh_interval: settings.refreshInterval, ...EXPUNGE_EVERY_DELETION }), memoryMapping(settings), EXPUNGE_EVERY_DELETION),
    expunging(names.centroids, settings, centroidMapping()),
    template(names.centroidMembers, indexSettings(settings), centroidMemberMapping()),
    expunging(names.jobs, settings, jobMapping()),
    expunging(names.keys, settings, keyMapping()),
    expunging(names.idempotency, settings, idempotencyMapping()),
    expunging(names.webhooks, settings, webhookMapping()),
    expunging(names.webhookDeliveries, settings, webhookDeliveryMapping()),
    expunging(names.webhookJobs, settings, jobMapping()),
  ];
}
