import { breaksAfter, CLOSE_QUOTE, OPEN_QUOTE, type Token } from './tokens.js';

export interface Span {
  /** First and last token index, inclusive. */
  start: number;
  end: number;
  name: string;
  /** Lemma of the media noun or verb that announced it ("movie", "watch"), null for a bare quoted span. */
  cue: string | null;
}

/** Nouns that announce a work: "the movie X", "her new album X". */
export const MEDIA_NOUNS: ReadonlySet<string> = new Set([
  'movie', 'film', 'flick', 'documentary', 'book', 'novel', 'memoir', 'show', 'series', 'sitcom', 'episode',
  'song', 'single', 'album', 'record', 'podcast', 'game', 'play', 'musical', 'anime', 'manga', 'comic', 'opera',
]);

/**
 * Verbs after which a Title Case phrase is a work rather than a name ("watched Dune", "reading Dune"). Verbs
 * of liking are left out: after "love" a capitalised word is a place or a cuisine as often as a work.
 */
const MEDIA_VERBS: ReadonlySet<string> = new Set([
  'watch', 'rewatch', 'binge', 'stream', 'see', 'read', 'reread', 'finish', 'play', 'listen', 'hear',
]);
/** Surface forms compromise does not lemmatise. */
const MEDIA_VERB_FORMS: ReadonlyMap<string, string> = new Map([
  ['binged', 'binge'], ['binging', 'binge'], ['bingeing', 'binge'], ['binge-watched', 'binge'], ['rewatched', 'rewatch'],
  ['rewatching', 'rewatch'], ['reread', 'reread'],
]);
/** Media verbs that take people as often as works: "saw Caroline", "heard Tom". */
const PEOPLE_VERBS: ReadonlySet<string> = new Set(['see', 'hear']);

/** Said right before a quote, these make it speech, not a title. */
const SPEECH_VERBS: ReadonlySet<string> = new Set([
  'say', 'tell', 'ask', 'reply', 'answer', 'yell', 'shout', 'whisper', 'write', 'text', 'mutter', 'go',
]);

/**
 * Lowercase words that may sit inside a title when a capitalised word follows: "Lord of the Rings". "at" is
 * left out: "Oppenheimer at the IMAX" is a film and a venue far more often than one title.
 */
const INNER_WORDS: ReadonlySet<string> = new Set(['of', 'the', 'a', 'an', 'to', 'for', 'in', 'on', 'with', 'from', 'and']);
/** Inner words that also start ordinary phrases after a title ("Dune in Austin"), so the next word decides. */
const WEAK_INNER_WORDS: ReadonlySet<string> = new Set(['to', 'for', 'in', 'on', 'with', 'from']);

const MAX_TITLE_WORDS = 10;

/**
 * Titles of works: quoted spans that are not speech, Title Case phrases right after a media noun or verb
 * ("the movie Dune", "watched Dune", "listening to Abbey Road"), and Title Case phrases right before one
 * ("the Harry Potter books"). Lowercase titles without quotes ("we watched dune") are not found.
 */
export function findTitles(tokens: readonly Token[]): Span[] {
  const spans: Span[] = [];
  const taken = new Set<number>();
  const push = (start: number, end: number, cue: string | null) => {
    for (let i = start; i <= end; i++) if (taken.has(i)) return;
    const name = spanText(tokens, start, end);
    // After a media cue any words make a title ("the movie 'Up'"); without one, "That" or "So" is emphasis.
    if (!/\p{L}/u.test(name) || (cue === null && !hasContentWord(tokens, start, end))) return;
    for (let i = start; i <= end; i++) taken.add(i);
    spans.push({ start, end, name, cue });
  };

  for (const [start, end] of quotedSpans(tokens)) {
    const first = tokens[start] as Token;
    const cue = mediaCueBefore(tokens, start);
    const speech = speechBefore(tokens, start);
    if (cue !== null || (!speech && first.capitalised && end - start < 8)) push(start, end, cue);
  }

  for (let i = 0; i < tokens.length; i++) {
    if (taken.has(i)) continue;
    const cue = adjacentCue(tokens, i);
    const end = titleCaseEnd(tokens, i);
    if (end === null) continue;
    if (cue === null) {
      // "the Harry Potter books", "the Lord of the Rings movies".
      const after = tokens[end + 1];
      const last = tokens[end] as Token;
      const noun = after && !after.capitalised && MEDIA_NOUNS.has(after.lemma) && !breaksAfter(last) && !last.tags.has('Possessive');
      if (noun && !tokens[i]?.sentenceStart && !isNamedPlaceOrOrganization(tokens, i, end)) push(i, end, after.lemma);
      i = end;
      continue;
    }
    // After "saw" a known person or place is who was met ("saw Caroline"), not a work.
    if (PEOPLE_VERBS.has(cue) && isKnownName(tokens, i, end)) continue;
    // "watched Caroline's recital": the name owns the thing watched.
    if ((tokens[end] as Token).tags.has('Possessive')) continue;
    // "watched a Korean drama", "the Marvel movie": a capitalised word before a common noun modifies it.
    if (modifiesNoun(tokens, end)) continue;
    push(i, end, cue);
    // "watched Dune and Arrival", "read Dune, Emma and Persuasion": the list continues the cue.
    let last = end;
    for (;;) {
      const joiner = tokens[last + 1];
      const startNext = joiner && (joiner.normal === 'and' || joiner.normal === 'or') ? last + 2 : last + 1;
      if (!/,/.test(tokens[last]?.post ?? '') && startNext === last + 1) break;
      const nextEnd = titleCaseEnd(tokens, startNext);
      if (nextEnd === null || isKnownName(tokens, startNext, nextEnd) || (tokens[nextEnd] as Token).tags.has('Possessive')) break;
      push(startNext, nextEnd, cue);
      last = nextEnd;
    }
    i = last;
  }
  return spans.sort((a, b) => a.start - b.start);
}

/** Name text: words joined as written, inner name punctuation kept ("Mission: Impossible", "Spider-Man"). */
export function spanText(tokens: readonly Token[], start: number, end: number): string {
  let out = '';
  for (let i = start; i <= end; i++) {
    const token = tokens[i] as Token;
    out += token.text;
    if (i === end) break;
    const kept = token.post.replace(/[\s"“”‘’'«»,.;!?]/g, '');
    out += kept + (/\s/.test(token.post) || (!token.text && i > start) ? ' ' : '');
  }
  return out.replace(/^["“‘'«]+|["”’'»]+$/g, '').replace(/\s+/g, ' ').trim();
}

/**
 * The media noun or verb right before a Title Case phrase at `at`, across at most one article or possessive
 * ("watched the Office", "read her Dune"), or null. "played with Max" has no cue: "with" stands between.
 */
function adjacentCue(tokens: readonly Token[], at: number): string | null {
  let i = at - 1;
  const skipped = tokens[i];
  if (skipped && (skipped.tags.has('Determiner') || skipped.tags.has('Possessive')) && !breaksAfter(skipped)) i--;
  const token = tokens[i];
  if (!token || breaksAfter(token)) return null;
  if (token.normal === 'to' && tokens[i - 1]?.lemma === 'listen') return 'listen';
  return cueOf(token);
}

/** A capitalised media noun is part of a name ("Game of Thrones"), not a cue for the next words. */
function cueOf(token: Token): string | null {
  if (MEDIA_NOUNS.has(token.lemma) && token.tags.has('Noun') && !(token.capitalised && !token.sentenceStart)) return token.lemma;
  if (MEDIA_VERBS.has(token.lemma) && token.tags.has('Verb')) return token.lemma;
  return MEDIA_VERB_FORMS.get(token.normal) ?? null;
}

/** A title names something: a one-word quote of "That" or "So" is emphasis. */
function hasContentWord(tokens: readonly Token[], start: number, end: number): boolean {
  for (let i = start; i <= end; i++) {
    const tags = (tokens[i] as Token).tags;
    if (!tags.has('Pronoun') && !tags.has('Determiner') && !tags.has('Conjunction') && !tags.has('Preposition') && !tags.has('Adverb')) {
      return true;
    }
  }
  return false;
}

function quotedSpans(tokens: readonly Token[]): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (!OPEN_QUOTE.test(token.pre)) continue;
    for (let j = i; j < Math.min(tokens.length, i + MAX_TITLE_WORDS); j++) {
      const inner = tokens[j] as Token;
      if (CLOSE_QUOTE.test(inner.post)) {
        out.push([i, j]);
        i = j;
        break;
      }
      if (j > i && OPEN_QUOTE.test(inner.pre)) break;
    }
  }
  return out;
}

/**
 * Lemma of a media noun or verb among the `reach` words before `at` ("the horror movie 'X'", "listening to X"),
 * or null. A clause break ends the search.
 */
function mediaCueBefore(tokens: readonly Token[], at: number, reach = 4): string | null {
  for (let i = at - 1; i >= Math.max(0, at - reach); i--) {
    const token = tokens[i] as Token;
    if (breaksAfter(token)) return null;
    const cue = cueOf(token);
    if (cue) return cue;
    if (token.normal === 'to' && tokens[i - 1]?.lemma === 'listen') return 'listen';
  }
  return null;
}

function modifiesNoun(tokens: readonly Token[], end: number): boolean {
  const last = tokens[end] as Token;
  const next = tokens[end + 1];
  if (!next || breaksAfter(last) || CLOSE_QUOTE.test(last.post) || next.capitalised) return false;
  return next.tags.has('Noun') && !next.tags.has('Date') && !next.tags.has('Pronoun');
}

function speechBefore(tokens: readonly Token[], at: number): boolean {
  for (let i = at - 1; i >= Math.max(0, at - 3); i--) {
    if (SPEECH_VERBS.has((tokens[i] as Token).lemma)) return true;
  }
  return false;
}

/** Last index of a Title Case phrase starting at `start`, or null when none starts there. */
function titleCaseEnd(tokens: readonly Token[], start: number): number | null {
  let i = start;
  let end: number | null = null;
  while (i < tokens.length && i - start < MAX_TITLE_WORDS) {
    const token = tokens[i] as Token;
    if (titleWord(token, i === start)) {
      end = i;
      if (breaksAfter(token) || CLOSE_QUOTE.test(token.post)) break;
      i++;
      continue;
    }
    if (end === null || !INNER_WORDS.has(token.normal) || breaksAfter(token)) break;
    // "Beauty and the Beast" is one title, "Dune and Arrival" two: only "and the" stays inside.
    if (token.normal === 'and' && tokens[i + 1]?.normal !== 'the') break;
    // An inner word only continues the title when a title word (not a date or a known name) comes after it.
    let j = i;
    while (j < tokens.length && INNER_WORDS.has((tokens[j] as Token).normal)) j++;
    const after = tokens[j];
    if (!after || !titleWord(after) || isCalendar(after)) break;
    if (WEAK_INNER_WORDS.has(token.normal) && isKnownName(tokens, j, j)) break;
    i = j;
  }
  return end;
}

/** Capitalised words that name a medium or a channel, not a work: "watched TV", "saw it on YouTube". */
const NOT_TITLES: ReadonlySet<string> = new Set(['tv', 'netflix', 'youtube', 'hulu', 'hbo', 'spotify', 'radio', 'tiktok', 'instagram', 'i']);

function titleWord(token: Token, first = false): boolean {
  if (!token.capitalised || !token.text || NOT_TITLES.has(token.normal)) return false;
  // "Blade Runner 2049" ends in a number; "7 of the 16 Finals" is a count, not a title.
  if (first && !/^\p{Lu}/u.test(token.text)) return false;
  if (token.tags.has('Pronoun') || isCalendar(token)) return false;
  return true;
}

function isCalendar(token: Token): boolean {
  return token.tags.has('WeekDay') || token.tags.has('Month') || (token.tags.has('Date') && !token.tags.has('Year'));
}

function isNamedPlaceOrOrganization(tokens: readonly Token[], start: number, end: number): boolean {
  for (let i = start; i <= end; i++) {
    const tags = (tokens[i] as Token).tags;
    if (tags.has('Place') || tags.has('Organization')) return true;
  }
  return false;
}

/** A person, place or organisation compromise knows by name. */
function isKnownName(tokens: readonly Token[], start: number, end: number): boolean {
  for (let i = start; i <= end; i++) {
    const tags = (tokens[i] as Token).tags;
    if (tags.has('Person') || tags.has('Place') || tags.has('Organization')) return true;
  }
  return false;
}
