import { createRequire } from 'node:module';
import type Compromise from 'compromise';

/**
 * compromise and its lexicon are loaded on the first tokenize, not on import: every process imports this library
 * (the search library does, for entityKey), and only the enricher tokenizes.
 */
let nlp: typeof Compromise | undefined;
const compromise = () => (nlp ??= createRequire(import.meta.url)('compromise') as typeof Compromise);

/** One word of the text as compromise tagged it, flattened so the other modules never touch compromise's internals. */
export interface Token {
  /** Position in the flat token list. */
  i: number;
  /** As written; empty for the implicit half of a contraction ("I'm" -> "I" + ""). */
  text: string;
  /** Lowercase surface form; for contractions, the expanded word ("am", "not"). */
  normal: string;
  /** Lowercase lemma (singular noun, infinitive verb) when compromise knows one, `normal` otherwise. */
  lemma: string;
  pre: string;
  post: string;
  tags: ReadonlySet<string>;
  sentence: number;
  /** First word of its sentence: capitalised because of position, not because it is a name. */
  sentenceStart: boolean;
  /** Starts with an upper-case letter or a digit. */
  capitalised: boolean;
  /** A name: compromise's ProperNoun, or a capitalised word inside a sentence. */
  proper: boolean;
}

/** The fields compromise sets on a term beyond those its typings declare. */
interface RawTerm {
  text: string;
  pre: string;
  post: string;
  normal: string;
  tags?: Set<string>;
  root?: string;
  machine?: string;
  implicit?: string;
}

const NO_TAGS: ReadonlySet<string> = new Set();

/**
 * compromise's tagging steps, run by name. Its default pipeline adds a rule-based second pass (postTagger),
 * chunking and typeahead state, which cost most of the tagging time while changing few tags (much of it the
 * "the books" / "my kids" pattern repaired below) and adding false Person tags ("congrats", "bummer"). Enrichment
 * runs once per memory on a shared core, so speed wins (figures: README, "Measurements behind the constants").
 */
const STEPS = ['lexicon', 'preTagger', 'contractionTwo', 'root'];

/** Tags of a word that reads as a verb where only a noun can stand. */
const VERB_TAGS = ['Verb', 'PresentTense', 'PastTense', 'Infinitive', 'Participle', 'Imperative'];

export function tokenize(text: string): Token[] {
  const doc = compromise().tokenize(text);
  doc.compute(STEPS);
  const tokens: Token[] = [];
  const sentences = doc.docs as unknown as RawTerm[][];
  sentences.forEach((terms, sentence) => {
    terms.forEach((term, position) => {
      const normal = (term.implicit ?? term.machine ?? term.normal).toLowerCase();
      const tags = nominalAfterDeterminer(term, terms[position - 1]) ?? term.tags ?? NO_TAGS;
      const capitalised = /^[\p{Lu}\p{N}]/u.test(term.text);
      tokens.push({
        i: tokens.length,
        text: term.text,
        normal,
        lemma: (term.root ?? stripPossessive(normal)).toLowerCase(),
        pre: term.pre,
        post: term.post,
        tags,
        sentence,
        sentenceStart: position === 0,
        capitalised,
        // Inside a sentence a capital letter marks a name whatever the lexicon says ("gave Will a ride").
        proper:
          tags.has('ProperNoun') ||
          (capitalised && position > 0 && !tags.has('Pronoun') && /\p{L}/u.test(term.text) && !/["“‘'(]/.test(term.pre)),
      });
    });
  });
  return tokens;
}

/**
 * "the books", "my kids", "in line": after a determiner, possessive, adjective, number or preposition a word is a noun,
 * whatever the lexicon guessed. Gerunds keep their tags (the keyword step looks them up as nouns anyway).
 */
function nominalAfterDeterminer(term: RawTerm, previous: RawTerm | undefined): Set<string> | null {
  const tags = term.tags;
  const before = previous?.tags;
  if (!tags || !before || !tags.has('Verb') || tags.has('Gerund') || tags.has('Auxiliary') || tags.has('Copula')) return null;
  const preposition = before.has('Preposition') && previous?.normal !== 'to';
  if (!before.has('Determiner') && !before.has('Possessive') && !before.has('Adjective') && !before.has('Value') && !preposition) {
    return null;
  }
  if (/[,.;:!?]/.test(previous?.post ?? '')) return null;
  const repaired = new Set([...tags].filter((tag) => !VERB_TAGS.includes(tag)));
  repaired.add('Noun');
  return repaired;
}

export function stripPossessive(word: string): string {
  return word.replace(/['’]s$/i, '').replace(/s['’]$/i, 's');
}

/** Sentence-ending or clause-breaking punctuation after a word. */
export function breaksAfter(token: Token): boolean {
  return /[.,;!?()[\]]/.test(token.post);
}

export const OPEN_QUOTE = /["“‘'«]/;
export const CLOSE_QUOTE = /["”’'»]/;
