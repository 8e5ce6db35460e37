import { Database } from 'arangojs';
import type { GraphStore } from '@memory/ports';
import { graphError } from './errors.js';
import { ArangoGraphStore } from './graph-store.js';
import { layoutFor } from './layout.js';
import { resolveArangoGraphStoreOptions, type ArangoGraphStoreOptions, type ResolvedArangoGraphStoreOptions } from './options.js';
import { provision, unprovision } from './schema.js';

function connect(options: ResolvedArangoGraphStoreOptions): Database {
  return new Database({
    url: options.url,
    databaseName: options.database,
    auth: { username: options.username, password: options.password },
  });
}

/**
 * Connects, creates what is missing (database if allowed, collections, indexes, the named graph) and returns the
 * store. Options are checked first (ConfigError); engine failures are GRAPH.* MemoryServiceErrors, retriable
 * when the server is unreachable or busy.
 */
export async function openArangoGraphStore(options: ArangoGraphStoreOptions): Promise<GraphStore> {
  const resolved = resolveArangoGraphStoreOptions(options);
  const layout = layoutFor(resolved.collectionPrefix);
  const db = connect(resolved);
  try {
    await provision(db, layout, resolved);
  } catch (error) {
    db.close();
    throw graphError('open', error);
  }
  return new ArangoGraphStore(db, layout, resolved);
}

/**
 * Drops the store's graph and collections; the database is left alone. The graph is a projection of the log,
 * so this is how it is rebuilt from scratch, and how tests clean up.
 */
export async function dropArangoGraphStore(options: ArangoGraphStoreOptions): Promise<void> {
  const resolved = resolveArangoGraphStoreOptions(options);
  const db = connect(resolved);
  try {
    await unprovision(db, layoutFor(resolved.collectionPrefix));
  } catch (error) {
    throw graphError('drop', error);
  } finally {
    db.close();
  }
}
