import type { Token } from './tokens.js';
import type { WordNetPos } from './wordnet.js';

export interface Keyword {
  /** Lowercase lemma, or a WordNet collocation ("ice cream"). */
  word: string;
  pos: WordNetPos;
  /** Gerunds are looked up as nouns first ("hiking" the activity, not "hike" the price rise). */
  gerund: string | null;
  /** Not a name: names are entities, and WordNet's senses of a name are noise. */
  common: boolean;
}

export const MAX_KEYWORDS = 16;

/**
 * Words that carry grammar or filler rather than content. Compromise removes most function words by tag;
 * this list catches the content-tagged words that are too generic to find a memory by.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'be is am are was were been being have has had having do does did done doing get got gotten getting go goes ' +
    'went gone going make made let seem seems use used say said tell told think thought know knew want wanted ' +
    'will would shall should can could may might must ought need come came take took put keep give thing things ' +
    'stuff lot lots bit way kind sort time times day days today yesterday tomorrow tonight morning evening ' +
    'night week month year last next other another new old good bad great nice many much more most few ' +
    'some such same own sure really very just also even still ever never always often sometimes yes no ok okay ' +
    'etc something anything everything nothing someone anyone everyone people person guy guys mine yours ' +
    'one two three first second able someday somehow somewhere anyway the a an this that these those there here ' +
    'which what who whom whose when where why how all every each both any none see'
  ).split(' '),
);

/** Words that turn a verb into a phrasal verb WordNet lists on its own ("break down", "give up"). */
const PARTICLES: ReadonlySet<string> = new Set(['up', 'down', 'out', 'off', 'on', 'in', 'over', 'back', 'away', 'around', 'through', 'into']);

const PRONOUN_LIKE = /^(?:i|me|my|we|us|our|you|your|he|him|his|she|her|they|them|their|it|its)$/;

/**
 * Content words (nouns, verbs, adjectives) as lemmas, without stop words and without the words of entity and
 * title spans (they are reported as entities). Ranked by frequency, then first occurrence, and bounded: a long
 * page keeps its most repeated words.
 */
export function extractKeywords(
  tokens: readonly Token[],
  excluded: ReadonlySet<number>,
  isCollocation: (words: string, pos: WordNetPos) => boolean,
): Keyword[] {
  const found = new Map<string, { keyword: Keyword; count: number; first: number }>();
  const add = (keyword: Keyword, at: number) => {
    const seen = found.get(keyword.word);
    if (seen) seen.count++;
    else found.set(keyword.word, { keyword, count: 1, first: at });
  };
  for (let n = 0; n < tokens.length; n++) {
    const token = tokens[n] as Token;
    if (excluded.has(token.i)) continue;
    const pos = contentPos(token);
    if (!pos) continue;
    const word = cleanWord(token.lemma);
    if (!word || STOP_WORDS.has(word) || PRONOUN_LIKE.test(word)) continue;
    const next = tokens[n + 1];
    if (next && !excluded.has(next.i) && !/[,.;!?]/.test(token.post)) {
      // "ice cream", "science fiction", "break down": one concept, and WordNet knows it as one.
      if ((pos === 'noun' || pos === 'adj') && contentPos(next) === 'noun') {
        const pair = `${token.normal} ${cleanWord(next.lemma)}`;
        if (isCollocation(pair, 'noun')) {
          add({ word: pair, pos: 'noun', gerund: null, common: true }, token.i);
          n++;
          continue;
        }
      }
      if (pos === 'verb' && PARTICLES.has(next.normal)) {
        const phrasal = `${word} ${next.normal}`;
        if (isCollocation(phrasal, 'verb')) {
          add({ word: phrasal, pos: 'verb', gerund: null, common: true }, token.i);
          n++;
          continue;
        }
      }
    }
    const gerund = token.tags.has('Gerund') ? cleanWord(token.normal) : null;
    add({ word, pos, gerund, common: !token.proper }, token.i);
  }
  return [...found.values()]
    .sort((a, b) => b.count - a.count || a.first - b.first)
    .slice(0, MAX_KEYWORDS)
    .sort((a, b) => a.first - b.first)
    .map((entry) => entry.keyword);
}

function contentPos(token: Token): WordNetPos | null {
  const tags = token.tags;
  if (tags.has('Pronoun') || tags.has('Determiner') || tags.has('Preposition') || tags.has('Conjunction')) return null;
  if (tags.has('Value') || tags.has('Auxiliary') || tags.has('Copula') || tags.has('Modal')) return null;
  // Calendar words are the temporal stage's business; "weekend" or "birthday" still say what a memory is about.
  if (tags.has('WeekDay') || tags.has('Month') || tags.has('Year') || tags.has('Duration')) return null;
  if (tags.has('Date')) return /^\p{L}+$/u.test(token.normal) ? 'noun' : null;
  if (tags.has('Verb')) return 'verb';
  if (tags.has('Adjective')) return 'adj';
  if (tags.has('Noun')) return 'noun';
  return null;
}

function cleanWord(word: string): string {
  const cleaned = word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  return cleaned.length >= 2 && /\p{L}/u.test(cleaned) ? cleaned : '';
}
