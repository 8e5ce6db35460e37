import { TopK } from './top-k.js';

/** Okapi BM25 with Lucene's defaults and idf, so the embedded index ranks like Elasticsearch's default similarity. */
export const BM25 = { k1: 1.2, b: 0.75 } as const;

/** Lucene's BM25 idf of a term held by `documentFrequency` of `documents` documents. */
export function bm25Idf(documents: number, documentFrequency: number): number {
  return Math.log(1 + (documents - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

export interface LexicalHit {
  id: string;
  /** Raw BM25: unbounded, comparable only within one query. */
  score: number;
}

/** One term's documents: parallel arrays of document slots and term frequencies, the first `size` entries used. */
interface Posting {
  slots: Int32Array;
  counts: Uint16Array;
  size: number;
}

const INITIAL_POSTING = 4;
const INITIAL_SLOTS = 64;
const MAX_COUNT = 0xffff;

/**
 * An in-memory inverted index of documents' terms (from lexicalTerms). Adding an id again replaces its terms.
 *
 * Documents are numbered (slots, reused after removal) so that postings, lengths and the score accumulator are
 * typed arrays: a query costs one pass over its terms' postings, a few nanoseconds per posting with no allocation,
 * then a k-bounded heap. At 100k documents a query whose terms are in 30k of them takes well under a millisecond;
 * the old maps keyed by id string took tens. Removing a document costs a scan of each of its terms' postings
 * (updates and deletions are rare next to adds and queries).
 */
export class Bm25Index {
  private readonly postings = new Map<string, Posting>();
  private readonly slotOf = new Map<string, number>();
  private ids: Array<string | undefined> = [];
  private termsOf: Array<string[] | undefined> = [];
  private lengths = new Uint32Array(INITIAL_SLOTS);
  private scores = new Float64Array(INITIAL_SLOTS);
  private readonly freeSlots: number[] = [];
  private totalLength = 0;

  get size(): number {
    return this.slotOf.size;
  }

  add(id: string, terms: string[]): void {
    this.remove(id);
    const counts = new Map<string, number>();
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    const slot = this.takeSlot(id);
    for (const [term, count] of counts) {
      let posting = this.postings.get(term);
      if (!posting) this.postings.set(term, (posting = { slots: new Int32Array(INITIAL_POSTING), counts: new Uint16Array(INITIAL_POSTING), size: 0 }));
      if (posting.size === posting.slots.length) growPosting(posting);
      posting.slots[posting.size] = slot;
      posting.counts[posting.size] = Math.min(count, MAX_COUNT);
      posting.size++;
    }
    this.lengths[slot] = terms.length;
    this.termsOf[slot] = [...counts.keys()];
    this.totalLength += terms.length;
  }

  remove(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    for (const term of this.termsOf[slot] ?? []) {
      const posting = this.postings.get(term);
      if (!posting) continue;
      // Order within a posting does not matter: the last entry takes the removed one's place.
      const at = posting.slots.subarray(0, posting.size).indexOf(slot);
      if (at < 0) continue;
      const last = --posting.size;
      posting.slots[at] = posting.slots[last]!;
      posting.counts[at] = posting.counts[last]!;
      if (posting.size === 0) this.postings.delete(term);
    }
    this.totalLength -= this.lengths[slot]!;
    this.lengths[slot] = 0;
    this.ids[slot] = undefined;
    this.termsOf[slot] = undefined;
    this.slotOf.delete(id);
    this.freeSlots.push(slot);
  }

  /** Best k documents for the query's terms, highest score first (ties by id); `accept` filters before ranking. */
  search(queryTerms: string[], k: number, accept?: (id: string) => boolean): LexicalHit[] {
    const n = this.slotOf.size;
    if (n === 0 || k <= 0) return [];
    const averageLength = this.totalLength / n || 1;
    const { scores, lengths, ids } = this;
    const touched: number[] = [];
    // Per-slot filter verdicts, so `accept` runs once per document however many query terms it holds.
    const verdict = accept ? new Map<number, boolean>() : null;
    for (const term of new Set(queryTerms)) {
      const posting = this.postings.get(term);
      if (!posting) continue;
      const idf = bm25Idf(n, posting.size);
      const { slots, counts, size } = posting;
      for (let i = 0; i < size; i++) {
        const slot = slots[i]!;
        if (verdict) {
          let ok = verdict.get(slot);
          if (ok === undefined) verdict.set(slot, (ok = accept!(ids[slot]!)));
          if (!ok) continue;
        }
        const tf = counts[i]!;
        const norm = BM25.k1 * (1 - BM25.b + (BM25.b * lengths[slot]!) / averageLength);
        const before = scores[slot]!;
        if (before === 0) touched.push(slot);
        scores[slot] = before + (idf * tf * (BM25.k1 + 1)) / (tf + norm);
      }
    }
    const top = new TopK(Math.min(k, touched.length), (a, b) => ids[a]! < ids[b]!);
    for (const slot of touched) {
      const score = scores[slot]!;
      scores[slot] = 0;
      if (score >= top.floor) top.offer(score, slot);
    }
    return top.drain().map(({ slot, score }) => ({ id: ids[slot]!, score }));
  }

  /** How many documents hold the term: the rarer, the more it says (used to weigh entity anchors the same way). */
  documentFrequency(term: string): number {
    return this.postings.get(term)?.size ?? 0;
  }

  private takeSlot(id: string): number {
    const slot = this.freeSlots.pop() ?? this.ids.length;
    if (slot >= this.lengths.length) {
      const capacity = this.lengths.length * 2;
      const lengths = new Uint32Array(capacity);
      lengths.set(this.lengths);
      this.lengths = lengths;
      this.scores = new Float64Array(capacity); // all zero between searches
    }
    this.ids[slot] = id;
    this.slotOf.set(id, slot);
    return slot;
  }
}

function growPosting(posting: Posting): void {
  const slots = new Int32Array(posting.slots.length * 2);
  slots.set(posting.slots);
  const counts = new Uint16Array(posting.counts.length * 2);
  counts.set(posting.counts);
  posting.slots = slots;
  posting.counts = counts;
}
