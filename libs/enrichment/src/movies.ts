/**
 * Movie detection and genre, on lowercase text. Genre words are ambiguous outside film talk ("drama at work",
 * "a war of words"), so a genre is only reported for movie-related memories, and the words that are also
 * ordinary nouns count only next to a film word.
 */

interface GenreRule {
  label: string;
  /** Name the genre wherever they appear in movie talk. */
  strong: string[];
  /** Name the genre only next to a film word ("action movie") or right after a watch verb ("watched a drama"). */
  weak: string[];
  /** Say something about the film that implies the genre ("scary", "hilarious"); used when no genre is named. */
  cues: string[];
}

/** The labels are the normal form: search normalises a query's genre words through the same table. */
const GENRE_RULES: readonly GenreRule[] = [
  { label: 'horror', strong: ['horror', 'slasher', 'slashers', 'zombie movie', 'zombie film'], weak: [], cues: ['scary', 'creepy', 'terrifying', 'frightening', 'spooky', 'gory', 'jump scares?', 'haunted'] },
  { label: 'romance', strong: ['romantic comedy', 'romantic comedies', 'rom-?coms?', 'love story'], weak: ['romance', 'romantic'], cues: [] },
  { label: 'sci-fi', strong: ['sci-?fi', 'sci fi', 'science fiction', 'space opera'], weak: [], cues: ['aliens?', 'spaceships?', 'futuristic', 'time travel'] },
  { label: 'comedy', strong: ['comedy', 'comedies', 'stand-?up special'], weak: [], cues: ['funny', 'hilarious', 'laughed', 'laughing'] },
  { label: 'thriller', strong: ['thrillers?', 'psychological thriller'], weak: ['suspense'], cues: ['suspenseful', 'edge of (?:my|our) seats?'] },
  { label: 'animation', strong: ['animated', 'animation', 'cartoons?', 'pixar', 'anime', 'ghibli'], weak: [], cues: [] },
  { label: 'documentary', strong: ['documentary', 'documentaries', 'docuseries', 'docu-?series'], weak: [], cues: [] },
  { label: 'fantasy', strong: ['fantasy'], weak: [], cues: ['dragons?', 'wizards?'] },
  { label: 'mystery', strong: ['mystery', 'mysteries', 'whodunn?it', 'murder mystery'], weak: [], cues: [] },
  { label: 'superhero', strong: ['superhero', 'superheroes'], weak: [], cues: [] },
  { label: 'crime', strong: ['heist', 'gangster', 'mafia', 'mob movie'], weak: ['crime'], cues: [] },
  { label: 'action', strong: [], weak: ['action'], cues: ['explosions', 'car chases?'] },
  { label: 'drama', strong: [], weak: ['drama', 'dramas'], cues: [] },
  { label: 'war', strong: [], weak: ['war'], cues: [] },
  { label: 'western', strong: ['spaghetti western'], weak: ['western', 'westerns'], cues: ['cowboys?'] },
  { label: 'musical', strong: [], weak: ['musical', 'musicals'], cues: [] },
  { label: 'adventure', strong: [], weak: ['adventure'], cues: [] },
];

export const MOVIE_GENRES: readonly string[] = GENRE_RULES.map((rule) => rule.label);

const FILM_WORD = '(?:movies?|films?|flicks?|pictures?|series|shows?|fan|fans|lover|lovers|buff|buffs|nerd|junkie)';
const WATCH_VERB = '(?:watch|watched|watching|rewatched|binged|streamed|saw|seen|see)';

interface CompiledRule {
  label: string;
  named: RegExp;
  cue: RegExp | null;
}

const alternation = (words: string[]) => words.join('|');

const COMPILED: readonly CompiledRule[] = GENRE_RULES.map((rule) => {
  const parts: string[] = [];
  if (rule.strong.length) parts.push(`\\b(?:${alternation(rule.strong)})\\b`);
  if (rule.weak.length) {
    const weak = alternation(rule.weak);
    parts.push(`\\b(?:${weak})[ -]+${FILM_WORD}\\b`);
    parts.push(`\\b${WATCH_VERB}\\s+(?:(?:a|an|the|this|that|some|another|old|new|great|good|korean|french|british|classic)\\s+){0,2}(?:${weak})\\b`);
  }
  return {
    label: rule.label,
    named: new RegExp(parts.join('|')),
    cue: rule.cues.length ? new RegExp(`\\b(?:${alternation(rule.cues)})\\b`) : null,
  };
});

/** Words that make a memory movie talk on their own. */
const MOVIE_CUES =
  /\b(?:movies?|films?|flicks?|cinemas?|cinematic|netflix|hulu|imax|hbo|prime video|box office|trailers?|screening|multiplex|blockbusters?|sequel|prequel|theat(?:er|re)s?|drafthouse|oscars?|popcorn)\b|\bdisney\+/;
const WATCH_VERB_RE = new RegExp(`\\b${WATCH_VERB}\\b`);
/** Words that make a watched title television rather than film. */
const TV_CUES = /\b(?:tv|television|episodes?|season|seasons|sitcom|series|show)\b/;

export interface GenreMatch {
  label: string;
  /** Named outright ("horror movie") rather than implied by a cue word ("scary"). */
  named: boolean;
  /** The matched words, so sentiment can ignore "crime" or "romance" used as a genre. */
  words: string[];
}

/** The genre named first in the text, else (with allowCues) the one implied first by a cue word, else null. */
export function detectGenre(text: string, allowCues = true): GenreMatch | null {
  const lower = text.toLowerCase();
  return firstMatch(lower, true) ?? (allowCues ? firstMatch(lower, false) : null);
}

/** Normalise a genre phrase or query ("Sci Fi", "rom-com", "horror flicks") to its label, or null. */
export function normalizeGenre(text: string): string | null {
  return detectGenre(text, false)?.label ?? null;
}

export interface MovieSignals {
  content: string;
  userContext: string | null;
  /** A title was found right after a watch verb ("we watched Dune"). */
  watchedTitle: boolean;
  anyTitle: boolean;
}

export interface MovieResult {
  isMovie: boolean;
  genre: string | null;
  /** Genre names in movie talk ("crime", "romance"), which sentiment must not read as feelings. */
  genreWords: string[];
}

/**
 * Movie talk is a film word, a title after a watch verb (unless TV words say it was a show), a named genre
 * after a watch verb, or a userContext about films together with a watch verb or a title. The genre comes from
 * genre names in the content, then in the userContext, then from cue words in either.
 */
export function detectMovie(signals: MovieSignals): MovieResult {
  const content = signals.content.toLowerCase();
  const context = signals.userContext?.toLowerCase() ?? '';
  const contentGenre = detectGenre(content);
  const contextGenre = context ? detectGenre(context) : null;
  const watchVerb = WATCH_VERB_RE.test(content);
  const isMovie =
    MOVIE_CUES.test(content) ||
    (signals.watchedTitle && !TV_CUES.test(content)) ||
    (watchVerb && contentGenre?.named === true) ||
    ((MOVIE_CUES.test(context) || contextGenre !== null) && (watchVerb || signals.anyTitle));
  if (!isMovie) return { isMovie, genre: null, genreWords: [] };
  const ranked = [contentGenre, contextGenre].sort((a, b) => Number(b?.named ?? false) - Number(a?.named ?? false));
  const genre = ranked.find((match) => match !== null) ?? null;
  return { isMovie, genre: genre?.label ?? null, genreWords: contentGenre?.named ? contentGenre.words : [] };
}

function firstMatch(text: string, named: boolean): GenreMatch | null {
  let best: { index: number; label: string; match: string } | null = null;
  for (const rule of COMPILED) {
    const re = named ? rule.named : rule.cue;
    if (!re) continue;
    const match = re.exec(text);
    if (match && (!best || match.index < best.index)) best = { index: match.index, label: rule.label, match: match[0] };
  }
  if (!best) return null;
  return { label: best.label, named, words: best.match.split(/[\s-]+/).filter(Boolean) };
}
