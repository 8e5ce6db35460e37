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
 * Titles of works: quoted spans that are not speech, and Title Case phrases right after a media noun or a
 * media verb. Lowercase titles without quotes ("we watched dune") are not found.
 */
export function findTitles(tokens: readonly Token[]): Span[] {
  const spans: Span[] = [];
  const taken = new Set<number>();
  const push = (start: number, end: number, cue: string | null) => {
    for (let i = start; i <= end; i++) if (taken.has(i)) return;
    const name = spanText(tokens, start, end);
    if (!/\p{L}|\p{N}/u.test(name)) return;
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
    const cue = mediaCueBefore(tokens, i, 2);
    if (cue === null) continue;
    const end = titleCaseEnd(tokens, i);
    if (end === null) continue;
    // After "saw" a known person or place is who was met ("saw Caroline"), not a work.
    if (PEOPLE_VERBS.has(cue) && isNamedPersonOrPlace(tokens, i, end)) continue;
    // "watched Caroline's recital": the name owns the thing watched.
    if ((tokens[end] as Token).tags.has('Possessive')) continue;
    push(i, end, cue);
    // "watched Dune and Arrival", "read Dune, Emma and Persuasion": the list continues the cue.
    let last = end;
    for (;;) {
      const joiner = tokens[last + 1];
      const startNext = joiner && (joiner.normal === 'and' || joiner.normal === 'or') ? last + 2 : last + 1;
      if (!/,/.test(tokens[last]?.post ?? '') && startNext === last + 1) break;
      const nextEnd = titleCaseEnd(tokens, startNext);
      if (nextEnd === null || isNamedPersonOrPlace(tokens, startNext, nextEnd) || (tokens[nextEnd] as Token).tags.has('Possessive')) break;
      push(startNext, nextEnd, cue);
      last = nextEnd;
    }
  }
  return spans.sort((a, b) => a.start - b.start);
}

export function spanText(tokens: readonly Token[], start: number, end: number): string {
  let out = '';
  for (let i = start; i <= end; i++) {
    const token = tokens[i] as Token;
    if (!token.text) continue;
    if (out) out += ' ';
    out += token.text;
    // Keep inner punctuation that belongs to the name ("Mission: Impossible"), drop quotes and sentence marks.
    if (i < end) out += token.post.replace(/[\s"“”‘’'«»]/g, '').replace(/[,.;!?]/g, '');
  }
  return out.replace(/^["“‘'«]+|["”’'»]+$/g, '').replace(/\s+/g, ' ').trim();
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
    if (MEDIA_NOUNS.has(token.lemma) && token.tags.has('Noun')) return token.lemma;
    if (MEDIA_VERBS.has(token.lemma) && token.tags.has('Verb')) return token.lemma;
    const form = MEDIA_VERB_FORMS.get(token.normal);
    if (form) return form;
    if (token.normal === 'to' && tokens[i - 1]?.lemma === 'listen') return 'listen';
  }
  return null;
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
    if (titleWord(token)) {
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
    if (WEAK_INNER_WORDS.has(token.normal) && isNamedPersonOrPlace(tokens, j, j)) break;
    i = j;
  }
  return end;
}

function titleWord(token: Token): boolean {
  if (!token.capitalised || !token.text) return false;
  if (token.tags.has('Pronoun') || isCalendar(token)) return false;
  return true;
}

function isCalendar(token: Token): boolean {
  return token.tags.has('WeekDay') || token.tags.has('Month') || (token.tags.has('Date') && !token.tags.has('Year'));
}

function isNamedPersonOrPlace(tokens: readonly Token[], start: number, end: number): boolean {
  for (let i = start; i <= end; i++) {
    const tags = (tokens[i] as Token).tags;
    if (tags.has('Person') || tags.has('Place') || tags.has('Organization')) return true;
  }
  return false;
}
