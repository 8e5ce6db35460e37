import { stemmer } from 'stemmer';

/**
 * Words too common to tell memories apart. Kept short on purpose: BM25's idf already discounts frequent words, and
 * a long list would drop words that matter in a question ("first", "last", "before").
 */
const STOP_WORDS = new Set(
  (
    'a an and are as at be been being but by did do does doing for from had has have having he her hers him his how i if in into ' +
    'is it its me my myself of on or our ours she so than that the their theirs them then there these they this those to ' +
    'was we were what when where which who whom why will with would you your yours about can could should just also very'
  ).split(' '),
);

/** Longest word kept: longer runs are hashes or base64, not words anyone searches for. */
const MAX_WORD_CHARS = 40;

/** Letters and digits of any script; an apostrophe inside a word ("caroline's", "don't") splits it. */
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * The terms a text is indexed and searched by: lower-cased, accents folded, stop words dropped, Porter-stemmed
 * ("painting", "paints" and "painted" meet at "paint"). The same function serves every index (the embedded one
 * and Elasticsearch, which receives these terms pre-analysed), so both modes rank alike.
 */
export function lexicalTerms(text: string): string[] {
  const folded = text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
  const terms: string[] = [];
  for (const [word] of folded.matchAll(WORD)) {
    if (word.length > MAX_WORD_CHARS || STOP_WORDS.has(word)) continue;
    if (word.length === 1 && !/\d/.test(word)) continue; // the "s" of "Caroline's", a stray initial
    terms.push(/^[a-z]+$/.test(word) ? stemmer(word) : word);
  }
  return terms;
}
