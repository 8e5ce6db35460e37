import { classifyMemoryType } from './classify-type.js';
import { findEntities } from './entities.js';
import { extractKeywords, type Keyword } from './keywords.js';
import { lexnameTheme } from './lexnames.js';
import { detectMovie } from './movies.js';
import { scoreSentiment } from './sentiment.js';
import { lifeAreas, rankThemes } from './themes.js';
import { findTitles } from './titles.js';
import { tokenize, type Token } from './tokens.js';
import type { EnrichInput, Enricher, EnricherOptions, Enrichment } from './types.js';
import { WordNet, type Synset } from './wordnet.js';

export const MAX_SYNONYMS = 20;
export const SYNONYMS_PER_KEYWORD = 3;
/** The embedding suffix stays short so the vector is still mostly the content. */
/** Title cues that mean the work was watched, which makes it film talk unless TV words say otherwise. */
const WATCH_CUES: ReadonlySet<string> = new Set(['watch', 'rewatch', 'binge', 'stream', 'see', 'movie', 'film', 'flick']);

const TRAVEL_VERBS: ReadonlySet<string> = new Set(['go', 'travel', 'fly', 'visit', 'drive', 'arrive', 'return', 'move', 'head']);

/** Loads WordNet (the only slow, stateful step), then enriches synchronously. */
export async function createEnricher(options: EnricherOptions = {}): Promise<Enricher> {
  const wordnet = await WordNet.load(options.wordnetDir);
  // compromise loads here, at start with WordNet, rather than in the first record's enrichment (see tokenize).
  tokenize('');
  return { enrich: (input) => enrich(wordnet, input) };
}

function enrich(wordnet: WordNet, input: EnrichInput): Enrichment {
  const content = input.content;
  const tokens = tokenize(content);
  const contextTokens = input.userContext?.trim() ? tokenize(input.userContext) : [];

  const titles = findTitles(tokens);
  const { entities, covered } = findEntities(tokens, titles);
  const keywords = extractKeywords(tokens, covered, (words, pos) => wordnet.has(words, pos));
  const { synonyms, lexThemes } = expand(wordnet, keywords, tokens);

  const movie = detectMovie({
    content,
    userContext: input.userContext,
    watchedTitle: titles.some((title) => title.cue !== null && WATCH_CUES.has(title.cue)),
    anyTitle: titles.length > 0,
  });
  const extraThemes: string[] = [];
  if (movie.isMovie) extraThemes.push('movies');
  // "Went to Lisbon with Mom": a named place reached by a verb of going is travel even without the word "trip".
  if (entities.some((entity) => entity.type === 'place') && tokens.some((token) => TRAVEL_VERBS.has(token.lemma))) {
    extraThemes.push('travel');
  }
  const themes = rankThemes([...lifeAreas(tokens, covered), ...lifeAreas(contextTokens)], lexThemes, extraThemes);

  const neutral = new Set<string>(movie.genreWords);
  for (const title of titles) for (const word of title.name.toLowerCase().split(/[^\p{L}\p{N}']+/u)) if (word) neutral.add(word);
  const sentiment = scoreSentiment(content, neutral);

  const memoryType = classifyMemoryType({
    tokens,
    contextTokens,
    personCount: entities.filter((entity) => entity.type === 'person').length,
    futureReference: input.time ? input.time.mentions.some((m) => m.start > input.time!.referenceTime) : false,
  });

  return {
    memoryType,
    themes,
    synonyms,
    keywords: keywords.map((keyword) => keyword.word),
    entities,
    sentiment: sentiment.label,
    sentimentScore: sentiment.score,
    movieGenre: movie.genre,
    mentionedTitles: [...new Set(titles.map((title) => title.name))],
    enrichedText: content.trim(),
  };
}

/**
 * WordNet expansion of the keywords. Each keyword contributes the lemmas of its most frequent sense, or of
 * its second sense when the first has no lemma but the word itself ("love" -> "enjoy"); the lexicographer file
 * of the first sense gives its theme. A lemma is kept only when that sense is also one of its own usual senses
 * and it is an everyday word (see WordNet.isTypicalLemma), which keeps "car" -> "automobile" and drops
 * "machine", and keeps "knee" from bringing "articulatio genus".
 */
function expand(wordnet: WordNet, keywords: readonly Keyword[], tokens: readonly Token[]): { synonyms: string[]; lexThemes: string[] } {
  const used = new Set<string>();
  for (const token of tokens) {
    used.add(spellingKey(token.normal));
    used.add(spellingKey(token.lemma));
  }
  for (const keyword of keywords) used.add(spellingKey(keyword.word));
  const synonyms: string[] = [];
  const lexThemes: string[] = [];
  for (const keyword of keywords) {
    if (!keyword.common) continue;
    const senses = lookup(wordnet, keyword);
    const sense = mainSense(senses);
    if (!sense) continue;
    const theme = lexnameTheme((senses[0] ?? sense).lexFileNum);
    if (theme) lexThemes.push(theme);
    let taken = 0;
    for (const lemma of sense.lemmas) {
      if (taken >= SYNONYMS_PER_KEYWORD || synonyms.length >= MAX_SYNONYMS) break;
      const candidate = lemma.toLowerCase();
      const key = spellingKey(candidate);
      if (used.has(key) || !usableSynonym(lemma, keyword.word) || !wordnet.isTypicalLemma(lemma, sense)) continue;
      used.add(key);
      synonyms.push(candidate);
      taken++;
    }
  }
  return { synonyms, lexThemes };
}

function mainSense(senses: readonly Synset[]): Synset | undefined {
  const [first, second] = senses;
  return first && first.lemmas.length === 1 && second ? second : first;
}

function lookup(wordnet: WordNet, keyword: Keyword): Synset[] {
  if (keyword.gerund) {
    const asNoun = wordnet.synsets(keyword.gerund, 'noun');
    if (asNoun.length > 0) return asNoun;
  }
  const senses = wordnet.synsets(keyword.word, keyword.pos);
  if (senses.length > 0 || keyword.pos === 'noun') return senses;
  // compromise and WordNet disagree on part of speech now and then ("favorite" as a noun); the word still helps.
  return wordnet.synsets(keyword.word, 'noun');
}

/** Lemmas that read as a plain alternative: no names or abbreviations, short, not a phrase built on the word. */
function usableSynonym(lemma: string, word: string): boolean {
  if (/[\p{Lu}.\d]/u.test(lemma)) return false;
  const parts = lemma.split(/[\s-]+/);
  if (parts.length > 2) return false;
  return !word.split(' ').some((part) => parts.includes(part));
}

/** British and American spellings count as one word ("realise", "realize"). */
function spellingKey(word: string): string {
  return word.replace(/is(e|ed|es|ing|ation)$/, 'iz$1');
}
