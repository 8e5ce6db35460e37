import type { estypes } from '@elastic/elasticsearch';
import { bm25Idf } from '@memory/lexical';
import type { Scope } from '@memory/ports';
import { documentId } from './names.js';
import { scopeFilter } from './queries.js';

/**
 * Elasticsearch's BM25 takes a term's idf from the whole shard, every end user's memories together; the embedded
 * index takes it from the one end user's. A name frequent in one user's memories and rare elsewhere is then worth
 * much more here than there (on LoCoMo, the speakers' names), and one user's ranking would move with what the
 * others write. So each query term is boosted by idf(user) / idf(index): Lucene's score is boost × idf × tf-norm,
 * which becomes the user's idf × tf-norm. The length norm keeps the index's average length.
 *
 * The index's counts are Lucene's own (the term vectors of the query's terms, read from the shard copy the search
 * will score on): Lucene counts a deleted document until a merge drops it, and counts of live documents only left a
 * difference that moved one user's scores when another deleted a word, for the minute before the expunge. The
 * user's counts come from a search of size 0 sent at the same time.
 */

/** Counts of the terms among the end user's memories, in one search of size 0. */
export function userTermStatsRequest(index: string, scope: Scope, terms: readonly string[], preference: string): estypes.SearchRequest {
  return {
    index,
    size: 0,
    track_total_hits: true,
    preference,
    query: { bool: { filter: scopeFilter(scope) } },
    aggs: { user: { filters: { filters: Object.fromEntries(terms.map((term, i) => [`t${i}`, { term: { lexicalTerms: term } }])) } } },
  };
}

/** The shard's statistics of the terms as Lucene scores with them: term vectors of a document made of the terms. */
export function indexTermStatsRequest(index: string, terms: readonly string[], preference: string): estypes.TermvectorsRequest<{ lexicalTerms: string }> {
  return {
    index,
    doc: { lexicalTerms: terms.join(' ') },
    fields: ['lexicalTerms'],
    term_statistics: true,
    field_statistics: true,
    positions: false,
    offsets: false,
    payloads: false,
    preference,
  };
}

/**
 * Which shard copy an end user's searches read: the term statistics and the search must come from the same copy,
 * whose deleted documents are its own until its merges. A custom preference string picks one copy per user.
 */
export function searchPreference(scope: Scope): string {
  return `user:${documentId(scope.tenantId, scope.endUserId)}`;
}

export interface TermStats {
  userDocuments: number;
  indexDocuments: number;
  /** Per term, in the order asked: how many of the user's memories, and of the index's documents, hold it. */
  userFrequencies: number[];
  indexFrequencies: number[];
}

export function readTermStats(user: estypes.SearchResponse, index: estypes.TermvectorsResponse, terms: readonly string[]): TermStats {
  const total = user.hits.total;
  const buckets = (user.aggregations as unknown as { user: { buckets: Record<string, { doc_count: number }> } }).user.buckets;
  const field = index.term_vectors?.['lexicalTerms'];
  return {
    userDocuments: typeof total === 'number' ? total : (total?.value ?? 0),
    indexDocuments: field?.field_statistics?.doc_count ?? 0,
    userFrequencies: terms.map((_, i) => buckets[`t${i}`]?.doc_count ?? 0),
    indexFrequencies: terms.map((term) => field?.terms[term]?.doc_freq ?? 0),
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
