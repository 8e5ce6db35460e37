import type { Client, estypes } from '@elastic/elasticsearch';
import type { MemoryServiceError } from '@memory/platform';
import { call, failureError, type Family } from './errors.js';

/**
 * One _bulk request; resolves with each operation's result in order. Elasticsearch applies the items one by one and
 * reports failures per item, so a partial failure is turned into one error: retriable only when every failed item
 * is (a batch with a mapping error would fail again however often it is sent). Every write we send by bulk is
 * keyed by a derived _id, so sending a whole batch again after a partial failure is safe.
 */
export async function bulk(
  client: Client,
  family: Family,
  what: string,
  operations: estypes.BulkRequest['operations'],
  refresh: estypes.Refresh,
  options: { conditional?: boolean } = {},
): Promise<estypes.BulkResponseItem[]> {
  const response = await call(family, what, () => client.bulk({ operations, refresh }));
  const items = response.items.map((item) => Object.values(item)[0] as estypes.BulkResponseItem);
  if (!response.errors) return items;
  const failures: MemoryServiceError[] = [];
  for (const item of items) {
    // `conditional`: an item that lost its condition (if_seq_no, create) is answered as it is, for the caller to decide.
    if (!item.error || (options.conditional && item.status === 409)) continue;
    failures.push(failureError(family, `${what} (${item._id})`, { status: item.status, type: item.error.type, reason: item.error.reason ?? undefined }));
  }
  if (failures.length === 0) return items;
  const worst = failures.find((failure) => !failure.retriable) ?? failures[0]!;
  if (failures.length > 1) worst.message = `${worst.message}; ${failures.length - 1} more of ${items.length} items failed`;
  throw worst;
}
