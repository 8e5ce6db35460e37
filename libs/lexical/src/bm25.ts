/** Okapi BM25 with Lucene's defaults and idf, so the embedded index ranks like Elasticsearch's default similarity. */
export const BM25 = { k1: 1.2, b: 0.75 } as const;

export interface LexicalHit {
  id: string;
  /** Raw BM25: unbounded, comparable only within one query. */
  score: number;
}

/**
 * An in-memory inverted index of documents' terms (from lexicalTerms). Adding an id again replaces its terms.
 * A query costs one pass over the postings of its terms: proportional to how many documents share them, not to
 * the size of the index.
 */
export class Bm25Index {
  private readonly postings = new Map<string, Map<string, number>>();
  private readonly lengths = new Map<string, number>();
  private readonly termsOf = new Map<string, string[]>();
  private totalLength = 0;

  get size(): number {
    return this.lengths.size;
  }

  add(id: string, terms: string[]): void {
    this.remove(id);
    const counts = new Map<string, number>();
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    for (const [term, count] of counts) {
      let posting = this.postings.get(term);
      if (!posting) this.postings.set(term, (posting = new Map()));
      posting.set(id, count);
    }
    this.lengths.set(id, terms.length);
    this.termsOf.set(id, [...counts.keys()]);
    this.totalLength += terms.length;
  }

  remove(id: string): void {
    const terms = this.termsOf.get(id);
    if (!terms) return;
    for (const term of terms) {
      const posting = this.postings.get(term);
      posting?.delete(id);
      if (posting?.size === 0) this.postings.delete(term);
    }
    this.totalLength -= this.lengths.get(id) ?? 0;
    this.lengths.delete(id);
    this.termsOf.delete(id);
  }

  /** Best k documents for the query's terms, highest score first (ties by id); `accept` filters before ranking. */
  search(queryTerms: string[], k: number, accept?: (id: string) => boolean): LexicalHit[] {
    const n = this.lengths.size;
    if (n === 0 || k <= 0) return [];
    const averageLength = this.totalLength / n || 1;
    const scores = new Map<string, number>();
    for (const term of new Set(queryTerms)) {
      const posting = this.postings.get(term);
      if (!posting) continue;
      const idf = Math.log(1 + (n - posting.size + 0.5) / (posting.size + 0.5));
      for (const [id, tf] of posting) {
        if (accept && !accept(id)) continue;
        const norm = BM25.k1 * (1 - BM25.b + (BM25.b * this.lengths.get(id)!) / averageLength);
        scores.set(id, (scores.get(id) ?? 0) + (idf * tf * (BM25.k1 + 1)) / (tf + norm));
      }
    }
    return [...scores]
      .map(([id, score]) => ({ id, score }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, k);
  }

  /** How many documents hold the term: the rarer, the more it says (used to weigh entity anchors the same way). */
  documentFrequency(term: string): number {
    return this.postings.get(term)?.size ?? 0;
  }
}
