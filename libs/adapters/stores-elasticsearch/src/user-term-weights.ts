import type { estypes } from '@elastic/elasticsearch';
import { bm25Idf } from '@memory/lexical';
import type { Scope } from '@memory/ports';
import { scopeFilter } from './queries.js';

/**
 * Elasticsearch's BM25 takes a term's idf from the whole shard, every end user's memories together; the embedded
 * index takes it from the one end user's. A name frequent in one user's memories and rare elsewhere is then worth
 * much more here than there (on LoCoMo, the speakers' names), and one user's ranking would move with what the
 * others write. So each query term is boosted by idf(user) / idf(index): Lucene's score is boost × idf × tf-norm,
 * which becomes the user's idf × tf-norm. The length norm keeps the index's average length. Both counts come from one
 * request (termStatsRequest) before the search.
 */

/** Counts of the terms among the end user's memories and in the whole index, in one search of size 0. */
export function termStatsRequest(index: string, scope: Scope, terms: readonly string[]): estypes.SearchRequest {
  const perTerm = { filters: { filters: Object.fromEntries(terms.map((term, i) => [`t${i}`, { term: { lexicalTerms: term } }])) } };
  return {
    index,
    size: 0,
    track_total_hits: true,
    query: { bool: { filter: scopeFilter(scope) } },
    aggs: {
      user: perTerm,
      index: { global: {}, aggs: { documents: { filter: { exists: { field: 'lexicalTerms' } } }, terms: perTerm } },
    },
  };
}

export interface TermStats {
  userDocuments: number;
  indexDocuments: number;
  /** Per term, in the order asked: how many of the user's memories, and of the index's documents, hold it. */
  userFrequencies: number[];
  indexFrequencies: number[];
}

export function readTermStats(response: estypes.SearchResponse, terms: readonly string[]): TermStats {
  const total = response.hits.total;
  const aggs = response.aggregations as unknown as {
    user: { buckets: Record<string, { doc_count: number }> };
    index: { documents: { doc_count: number }; terms: { buckets: Record<string, { doc_count: number }> } };
  };
  return {
    userDocuments: typeof total === 'number' ? total : (total?.value ?? 0),
    indexDocuments: aggs.index.documents.doc_count,
    userFrequencies: terms.map((_, i) => aggs.user.buckets[`t${i}`]?.doc_count ?? 0),
    indexFrequencies: terms.map((_, i) => aggs.index.terms.buckets[`t${i}`]?.doc_count ?? 0),
  };
}

/** The boost of each term the user's memories hold (terms they do not hold cannot match and are left out). */
export function userTermBoosts(terms: readonly string[], stats: TermStats): Map<string, number> {
  const boosts = new Map<string, number>();
  terms.forEach((term, i) => {
    const inUser = stats.userFrequencies[i]!;
    if (inUser === 0) return;
    // The index holds at least what the user holds (a refresh may show the user's count first).
    const indexIdf = bm25Idf(Math.max(stats.indexDocuments, stats.userDocuments), Math.max(stats.indexFrequencies[i]!, inUser));
    boosts.set(term, indexIdf > 0 ? bm25Idf(stats.userDocuments, inUser) / indexIdf : 1);
  });
  return boosts;
}
