import type { GraphStore } from '@memory/ports';
import { EmbeddedGraphStore } from './graph-store.js';
import { resolveGraphStoreOptions, type EmbeddedGraphStoreOptions } from './options.js';
import { GraphStorage } from './storage.js';

export type { EmbeddedGraphStoreOptions } from './options.js';

export function createEmbeddedGraphStore(options: EmbeddedGraphStoreOptions): GraphStore {
  return new EmbeddedGraphStore(GraphStorage.open(resolveGraphStoreOptions(options).dir));
}
