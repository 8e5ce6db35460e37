import type { Client, estypes } from '@elastic/elasticsearch';
import { MemoryServiceError } from '@memory/platform';
import { call, type Family } from './errors.js';

const PAGE = 1_000;

/**
 * Deletes every document matching a query, page by page: a refresh so the latest writes are seen, then a search of
 * ids sorted by _doc and a bulk delete of each page, until a search finds nothing. delete_by_query would be one call,
 * but it lives in the reindex module, which a minimal node (the one we run locally) does not have. Returns how many
 * documents were deleted.
 */
export async function deleteMatching(client: Client, family: Family, what: string, index: string, query: estypes.QueryDslQueryContainer): Promise<number> {
  let deleted = 0;
  for (;;) {
    await call(family, `${what}: refresh`, () => client.indices.refresh({ index }));
    const page = await call(family, `${what}: find`, () => client.search({ index, size: PAGE, _source: false, query, sort: ['_doc'] }));
    const ids = page.hits.hits.map((hit) => hit._id!);
    if (ids.length === 0) return deleted;
    const response = await call(family, `${what}: delete`, () => client.bulk({ operations: ids.map((id) => ({ delete: { _index: index, _id: id } })), refresh: false }));
    const failed = response.items.find((item) => item.delete?.error);
    if (failed) throw new MemoryServiceError(`${family}.STORAGE`, `${what} failed: ${failed.delete!.error!.reason ?? failed.delete!.error!.type}`, { retriable: true });
    deleted += response.items.filter((item) => item.delete?.result === 'deleted').length;
  }
}
