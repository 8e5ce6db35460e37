import { graphIds } from '@memory/ports';
import type { Strategy } from './strategy.js';

/**
 * direct_lookup: the identifiers in the query (memory ids, job ids, codes, e-mails) looked up in the keyword index.
 * One index read per identifier, whatever the number of memories; the embedder is never called.
 */
export const directLookup: Strategy = {
  name: 'direct_lookup',
  async run({ deps, config, analysis }) {
    const { scope, limit, weights, depths } = config;
    const ids = analysis.identifiers.length > 0 ? await deps.vectors.findByIdentifiers(scope, analysis.identifiers, Math.max(limit, depths.identifiers.floor), config.filter) : [];
    return {
      lists: [{ name: 'direct_lookup', weight: weights.direct_lookup, hits: ids.map((id) => ({ id, score: 1 })) }],
      anchors: new Map(ids.map((id) => [id, graphIds.memory(id)])),
      notes: { identifiers: analysis.identifiers },
    };
  },
};
