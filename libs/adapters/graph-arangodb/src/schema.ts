import { isArangoError } from 'arangojs/errors';
import { CollectionType } from 'arangojs/collections';
import type { Database } from 'arangojs';
import type { EnsurePersistentIndexOptions } from 'arangojs/indexes';
import { MemoryServiceError } from '@memory/platform';
import { EDGE_KINDS, VERTEX_SLOTS, type Layout } from './layout.js';

const DUPLICATE_NAME = 1207; // ERROR_ARANGO_DUPLICATE_NAME: someone else created it between our check and create
const GRAPH_DUPLICATE = 1925; // ERROR_GRAPH_DUPLICATE
const NOT_FOUND = new Set([1203 /* collection */, 1924 /* graph */]);

/** Index on the scope fields of every collection: what erasing one end user or tenant will scan by. */
const SCOPE_INDEX: EnsurePersistentIndexOptions = { type: 'persistent', name: 'scope', fields: ['tenantId', 'endUserId'], inBackground: true };

async function tolerating<T>(codes: ReadonlySet<number> | number, task: () => Promise<T>): Promise<T | undefined> {
  try {
    return await task();
  } catch (error) {
    const wanted = typeof codes === 'number' ? error !== null && isArangoError(error) && error.errorNum === codes : isArangoError(error) && codes.has(error.errorNum);
    if (wanted) return undefined;
    throw error;
  }
}

/**
 * Makes sure the database, the collections, their indexes and the named graph exist; safe to run from several
 * processes at once and on every start. Existence is checked before creating, so a user allowed to use but not
 * to create finds an already provisioned store usable (index creation still needs the right to create indexes).
 */
export async function provision(db: Database, layout: Layout, options: { createDatabase: boolean }): Promise<void> {
  if (!(await db.exists())) {
    if (!options.createDatabase) {
      throw new MemoryServiceError('GRAPH.NOT_PROVISIONED', `database "${db.name}" does not exist (set createDatabase to create it)`);
    }
    await tolerating(DUPLICATE_NAME, () => db.database('_system').createDatabase(db.name));
  }

  const vertexNames = VERTEX_SLOTS.map((slot) => layout.vertices[slot]);
  const edgeNames = EDGE_KINDS.map((kind) => layout.edges[kind]);
  const wanted: Array<[string, CollectionType]> = [
    ...vertexNames.map((name): [string, CollectionType] => [name, CollectionType.DOCUMENT_COLLECTION]),
    ...edgeNames.map((name): [string, CollectionType] => [name, CollectionType.EDGE_COLLECTION]),
  ];
  for (const [name, type] of wanted) {
    const collection = db.collection(name);
    if (!(await collection.exists())) {
      await tolerating(DUPLICATE_NAME, () =>
        type === CollectionType.EDGE_COLLECTION ? db.createEdgeCollection(name) : db.createCollection(name),
      );
    }
    const description = await collection.get();
    if (description.type !== type) {
      const expected = type === CollectionType.EDGE_COLLECTION ? 'an edge' : 'a document';
      throw new MemoryServiceError('GRAPH.NOT_PROVISIONED', `collection "${name}" exists but is not ${expected} collection`);
    }
    await collection.ensureIndex(SCOPE_INDEX);
  }

  const graph = db.graph(layout.graph);
  if (!(await graph.exists())) {
    // Any edge may join any two nodes (the port does not restrict it), so every edge collection may point from
    // and to every vertex collection.
    const definitions = edgeNames.map((collection) => ({ collection, from: vertexNames, to: vertexNames }));
    await tolerating(GRAPH_DUPLICATE, () => db.createGraph(layout.graph, definitions));
  }
}

/** Drops the graph and its collections (the database stays); what a rebuild from the log, or a test, starts with. */
export async function unprovision(db: Database, layout: Layout): Promise<void> {
  await tolerating(NOT_FOUND, () => db.graph(layout.graph).drop(true));
  // The graph drop takes its collections along; this catches any left by a provisioning that stopped midway.
  for (const name of [...VERTEX_SLOTS.map((slot) => layout.vertices[slot]), ...EDGE_KINDS.map((kind) => layout.edges[kind])]) {
    await tolerating(NOT_FOUND, () => db.collection(name).drop());
  }
}
