import { graphIds } from '@memory/ports';
import type { QueryAnalysis } from '../query-analysis.js';
import type { StrategyContext, StrategyOutcome } from './types.js';

/**
 * direct_lookup: the identifiers in the query (memory ids, job ids, codes, e-mails) looked up in the keyword index.
 * One index read per identifier, whatever the number of memories; the embedder is never called.
 */
export async function directLookup({ deps, scope, limit }: StrategyContext, analysis: QueryAnalysis, weight: number): Promise<StrategyOutcome> {
  const ids = analysis.identifiers.length > 0 ? await deps.vectors.findByIdentifiers(scope, analysis.identifiers, Math.max(limit, 20)) : [];
  return {
    lists: [{ name: 'direct_lookup', weight, hits: ids.map((id) => ({ id, score: 1 })) }],
    anchors: new Map(ids.map((id) => [id, graphIds.memory(id)])),
    notes: { identifiers: analysis.identifiers },
  };
}
