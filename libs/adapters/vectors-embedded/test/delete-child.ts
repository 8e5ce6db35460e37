/**
 * Child process of the vector store's crash test: opens the store in `dir`, writes `count` memories whose text
 * names them (`<word>-<i>`), then deletes the first `deleted` and dies by SIGKILL as soon as the deleting
 * transaction commits, before anything after it runs.
 *
 * Usage: node --conditions=source --import tsx delete-child.ts '<json>'
 *   json: { dir, word, count, deleted }
 */
import { killAfterNextCommit, memoryRecord, unitVector } from '@memory/testing';
import { openEmbeddedVectorStores } from '../src/index.js';
import type { VectorStorage } from '../src/storage.js';

interface ChildConfig {
  dir: string;
  word: string;
  count: number;
  deleted: number;
}

const config = JSON.parse(process.argv[2] ?? '{}') as ChildConfig;
const scope = { tenantId: 'acme', endUserId: 'alice' };
const stores = openEmbeddedVectorStores({ dir: config.dir });
const ids = Array.from({ length: config.count }, (_, i) => `mem_${i}`);
const text = (i: number) => `I told my therapist about ${config.word}-${i} and the argument with my brother`;
await stores.vectors.upsert(ids.map((id, i) => memoryRecord(scope, id, 8, { content: text(i), originalContent: text(i), vector: unitVector(8, { [i % 8]: 1, 7: 0.5 }) })));
killAfterNextCommit((stores.vectors as unknown as { storage: VectorStorage }).storage.env);
await stores.vectors.delete(scope, ids.slice(0, config.deleted));
await stores.close();
