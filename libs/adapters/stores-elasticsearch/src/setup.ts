import { errors, type Client, type estypes } from '@elastic/elasticsearch';
import { MemoryServiceError } from '@memory/platform';
import { call, engineError } from './errors.js';
import { fillDeliveryJobs, fillDerivedFields, fillIdempotencyJobIds, migrateIndex } from './migrate.js';
import { indexNames } from './names.js';
import type { ElasticsearchStoresSettings } from './options.js';
import { indexTemplates } from './templates.js';

const isType = (error: unknown, type: string) =>
  error instanceof errors.ResponseError && (error.meta.body as { error?: { type?: string } } | undefined)?.error?.type === type;

/**
 * Makes sure every index of the prefix exists with its template's mapping: puts the templates (idempotent), creates
 * the indices that are missing and migrates those of an older schema version in place (migrate.ts). Refuses, before
 * changing anything, a memories index whose vectors have other dimensions than the options say: a new embedding
 * model needs new indices (another prefix), filled by replay.
 */
export async function ensureIndices(client: Client, settings: ElasticsearchStoresSettings): Promise<void> {
  const existing = await readMappings(client, settings);
  checkDimensions(existing, settings);
  const names = indexNames(settings.prefix);
  // What each index whose documents gain indexed fields writes into those that predate them.
  const fills: Record<string, () => Promise<void>> = {
    [names.memories]: () => fillDerivedFields(client, names.memories),
    [names.idempotency]: () => fillIdempotencyJobIds(client, names.idempotency),
    [names.webhookDeliveries]: () => fillDeliveryJobs(client, names.webhookDeliveries),
  };
  await Promise.all(
    indexTemplates(settings).map(async (template) => {
      await call('VECTORS', `put index template ${template.name}`, () => client.indices.putIndexTemplate(template.request));
      const current = existing[template.name]?.mappings;
      if (current) {
        await migrateIndex(client, template.name, current, template.request.template!.mappings!, fills[template.name], template.migratedSettings);
        return;
      }
      try {
        await client.indices.create({ index: template.name });
      } catch (error) {
        // Another process created it first: that is the state we want (its template is the same one).
        if (!isType(error, 'resource_already_exists_exception')) throw engineError('VECTORS', `create index ${template.name}`, error);
      }
    }),
  );
}

async function readMappings(client: Client, settings: ElasticsearchStoresSettings): Promise<estypes.IndicesGetMappingResponse> {
  const names = Object.values(indexNames(settings.prefix));
  return call('VECTORS', `read the mappings of ${names.join(', ')}`, () =>
    client.indices.getMapping({ index: names, ignore_unavailable: true, allow_no_indices: true }),
  );
}

function checkDimensions(mappings: estypes.IndicesGetMappingResponse, settings: ElasticsearchStoresSettings): void {
  const index = indexNames(settings.prefix).memories;
  const vector = mappings[index]?.mappings.properties?.['vector'] as { dims?: number } | undefined;
  if (vector?.dims === undefined || vector.dims === settings.dims) return;
  throw new MemoryServiceError(
    'VECTORS.DIMENSION_MISMATCH',
    `index ${index} holds ${vector.dims}-dimensional vectors, the options say ${settings.dims}: a new embedding model needs new indices (another prefix), filled by replaying the log`,
    { details: { expected: vector.dims, got: settings.dims } },
  );
}

/** Deletes every index and template of the prefix: the stores are projections of the log and can be rebuilt. */
export async function dropIndices(client: Client, settings: Pick<ElasticsearchStoresSettings, 'prefix'>): Promise<void> {
  const names = Object.values(indexNames(settings.prefix));
  await call('VECTORS', `delete indices ${names.join(', ')}`, () => client.indices.delete({ index: names, ignore_unavailable: true }));
  await Promise.all(
    names.map((name) =>
      call('VECTORS', `delete index template ${name}`, () => client.indices.deleteIndexTemplate({ name }, { ignore: [404] })),
    ),
  );
}
