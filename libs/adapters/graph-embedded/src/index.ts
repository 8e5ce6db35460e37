import { finishPendingCompaction } from '@memory/platform';
import type { GraphStore } from '@memory/ports';
import { EmbeddedGraphStore } from './graph-store.js';
import { resolveGraphStoreOptions, type EmbeddedGraphStoreOptions } from './options.js';
import { GraphStorage } from './storage.js';

export type { EmbeddedGraphStoreOptions } from './options.js';

/** Compacts the graph in `dir` if a process deleted from it and died before closing it (see markForCompaction). */
export function finishGraphStoreCompaction(dir: string): Promise<void> {
  return finishPendingCompaction(dir, () => GraphStorage.open(dir).env);
}

export function createEmbeddedGraphStore(options: EmbeddedGraphStoreOptions): GraphStore {
  const resolved = resolveGraphStoreOptions(options);
  return new EmbeddedGraphStore(GraphStorage.open(resolved.dir, resolved.compactAfterDeletes));
}
