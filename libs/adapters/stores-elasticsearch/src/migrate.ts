import type { Client, estypes } from '@elastic/elasticsearch';
import type { LexicalSource } from '@memory/lexical';
import { jobIdOfRecord, type StoredResponse, type TimedSource, type WebhookDelivery } from '@memory/ports';
import { call, failureError, type Family } from './errors.js';
import { lexicalFields, timesBytes, vectorBytes } from './memory-document.js';
import { SCHEMA_VERSION } from './templates.js';
import { jobFieldsOf } from './webhook-store.js';

const BACKFILL_PAGE = 500;
/** How long a scroll's snapshot is kept between two pages of a backfill. */
const SCROLL_KEEP_ALIVE = '1m';

/** The schema version an index was created (or last migrated) with; 1 for indices from before it was recorded. */
export function schemaVersionOf(mapping: estypes.MappingTypeMapping): number {
  const version = mapping._meta?.['schemaVersion'];
  return typeof version === 'number' ? version : 1;
}

/**
 * Brings an index of an older schema version up to this one, in place, while it stays in use: every change so far
 * only added fields, and Elasticsearch accepts new fields on an existing index (put mapping) where it refuses changed
 * ones. Fields the index already has are left alone, so options that only apply at creation (dims, HNSW
 * parameters) are never resent. `fill` then writes the new fields into the documents that predate them; the version
 * in _meta goes up last, so an open interrupted half-way simply does the (idempotent) work again. `fill` runs on an
 * up-to-date index too (one search when there is nothing to do): a process of the old version still writing during
 * a rolling deploy leaves documents without the new fields after the migration. `settings` are dynamic settings that
 * later versions added to the index's template (a template only applies when an index is created).
 */
export async function migrateIndex(
  client: Client,
  index: string,
  current: estypes.MappingTypeMapping,
  wanted: estypes.MappingTypeMapping,
  fill?: () => Promise<void>,
  settings?: estypes.IndicesIndexSettings,
): Promise<void> {
  if (schemaVersionOf(current) >= SCHEMA_VERSION) {
    await fill?.();
    return;
  }
  const missing = Object.entries(wanted.properties ?? {}).filter(([field]) => !(field in (current.properties ?? {})));
  if (missing.length > 0) {
    await call('VECTORS', `add fields ${missing.map(([field]) => field).join(', ')} to ${index}`, () =>
      client.indices.putMapping({ index, properties: Object.fromEntries(missing) }),
    );
  }
  if (settings) await call('VECTORS', `update the settings of ${index}`, () => client.indices.putSettings({ index, settings }));
  await fill?.();
  // _meta is replaced as a whole: keep what the index recorded at creation (dims).
  await call('VECTORS', `record schema version ${SCHEMA_VERSION} of ${index}`, () =>
    client.indices.putMapping({ index, _meta: { ...current._meta, schemaVersion: SCHEMA_VERSION } }),
  );
}

/**
 * Writes the derived fields later schema versions added (lexicalTerms and identifiers, vectorBytes, timesBytes) into the memory
 * documents written before them, computed from the document itself as a new write would. Each update is
 * conditional on the version read: when it loses to a concurrent upsert, that upsert wrote the fields itself (a
 * writer still on an old version did not, and the next round sees its document again). Every memory has identifiers
 * (its own id at least), a vector and a creation time, so lacking any derived field is exactly "not yet filled". An
 * update carries every derived field, so vectorBytes and timesBytes, which _source does not keep, are never lost when
 * Elasticsearch rebuilds the document. (An index created before version 6 keeps timesBytes in _source: put mapping
 * cannot change _source's excludes, and reads drop it with the other derived fields.)
 */
export async function fillDerivedFields(client: Client, index: string): Promise<void> {
  const unfilled = (field: string) => ({ bool: { must_not: [{ exists: { field } }] } });
  for (;;) {
    const response = await call('VECTORS', `read memories without derived fields in ${index}`, () =>
      client.search<LexicalSource & { vector: number[] } & Omit<TimedSource, 'id'>>({
        index,
        query: { bool: { should: [unfilled('identifiers'), unfilled('vectorBytes'), unfilled('timesBytes')], minimum_should_match: 1 } },
        size: BACKFILL_PAGE,
        _source: ['id', 'jobId', 'content', 'originalContent', 'userContext', 'document', 'vector', 'createdAt', 'eventTimes'],
        seq_no_primary_term: true,
      }),
    );
    const hits = response.hits.hits;
    if (hits.length === 0) return;
    const operations = hits.flatMap((hit) => [
      { update: { _index: index, _id: hit._id!, if_seq_no: hit._seq_no!, if_primary_term: hit._primary_term! } },
      { doc: { ...lexicalFields(hit._source!), vectorBytes: vectorBytes(Float32Array.from(hit._source!.vector)), timesBytes: timesBytes(hit._source!) } },
    ]);
    // Refreshed, so that the next round's search no longer sees the documents just filled.
    const result = await call('VECTORS', `fill derived fields of ${hits.length} memories in ${index}`, () => client.bulk({ operations, refresh: true }));
    throwBulkFailures('VECTORS', result, (id) => `fill derived fields of memory document ${id} in ${index}`);
  }
}

/**
 * Indexes the job id of the idempotency records written before schema 8 mapped it (their _source holds it, unindexed),
 * so that forgetting a job finds them; a completed record that kept none (a PATCH's) gets the one its answer names,
 * as a completion now writes it (jobIdOfRecord). A record that names no job (a claim without one, still being
 * answered) stays as it is.
 */
export function fillIdempotencyJobIds(client: Client, index: string): Promise<void> {
  return rewriteUnfilled<IdempotencySource>(client, 'IDEMPOTENCY', `index the job ids of the idempotency records in ${index}`, index, 'jobId', (source) => {
    const jobId = jobIdOfRecord(source);
    return jobId === null ? null : { ...source, jobId };
  });
}

/**
 * Indexes the job of the webhook deliveries written before schema 9 (the job their body names) and its accept time,
 * so that forgetting a job finds its deliveries and an erasure those of the jobs accepted before it.
 */
export function fillDeliveryJobs(client: Client, index: string): Promise<void> {
  return rewriteUnfilled<DeliverySource>(client, 'WEBHOOK', `index the jobs of the webhook deliveries in ${index}`, index, 'jobAcceptedAt', (source) => ({ ...source, ...jobFieldsOf(source) }));
}

/**
 * Writes again, whole, each document of the index that lacks `field`, as `rewrite` makes it (null: left as it is).
 * Each write is conditional on the version read: one that lost to a concurrent writer was written under the new
 * mapping. One pass over a scroll's snapshot, since a document `rewrite` leaves alone would be found again by every
 * search.
 */
async function rewriteUnfilled<T>(client: Client, family: Family, what: string, index: string, field: string, rewrite: (source: T) => T | null): Promise<void> {
  await call(family, `${what}: refresh`, () => client.indices.refresh({ index }));
  let page = await call(family, what, () =>
    client.search<T>({ index, scroll: SCROLL_KEEP_ALIVE, size: BACKFILL_PAGE, query: { bool: { must_not: [{ exists: { field } }] } }, seq_no_primary_term: true }),
  );
  try {
    while (page.hits.hits.length > 0) {
      const operations = page.hits.hits.flatMap((hit) => {
        const document = rewrite(hit._source!);
        return document === null ? [] : [{ index: { _index: index, _id: hit._id!, if_seq_no: hit._seq_no!, if_primary_term: hit._primary_term! } }, document];
      });
      if (operations.length > 0) {
        const result = await call(family, what, () => client.bulk({ operations, refresh: false }));
        throwBulkFailures(family, result, (id) => `${what} (${id})`);
      }
      const scrollId = page._scroll_id!;
      page = await call(family, what, () => client.scroll<T>({ scroll_id: scrollId, scroll: SCROLL_KEEP_ALIVE }));
    }
  } finally {
    // The snapshot would otherwise hold its segments until the keep-alive ends.
    const scrollId = page._scroll_id;
    if (scrollId) await client.clearScroll({ scroll_id: scrollId }).catch(() => undefined);
  }
}

/** What the idempotency backfill reads of a record: the fields jobIdOfRecord looks at, and the rest it writes back. */
type IdempotencySource = { response: StoredResponse | null; jobId?: string | null } & Record<string, unknown>;

/** What the deliveries backfill reads of a delivery: the fields jobFieldsOf looks at, and the rest it writes back. */
type DeliverySource = Pick<WebhookDelivery, 'jobId' | 'body' | 'createdAt'> & Record<string, unknown>;

/**
 * Throws the first failure of a backfill's bulk write, leaving out version conflicts: a document a concurrent writer
 * changed after it was read, which that write brought up to date (or the next open's backfill finds again).
 */
function throwBulkFailures(family: Family, result: estypes.BulkResponse, what: (id: string) => string): void {
  for (const item of result.items.map((entry) => Object.values(entry)[0] as estypes.BulkResponseItem)) {
    if (!item.error || item.status === 409) continue;
    throw failureError(family, what(String(item._id)), { status: item.status, type: item.error.type, reason: item.error.reason ?? undefined });
  }
}
