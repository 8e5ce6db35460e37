import { breaksAfter, stripPossessive, type Token } from './tokens.js';
import { spanText, type Span } from './titles.js';
import type { Entity, EntityType } from './types.js';

/** Last words that make a name an organisation. */
const ORGANIZATION_HEADS: ReadonlySet<string> = new Set([
  'inc', 'corp', 'corporation', 'company', 'co', 'llc', 'ltd', 'group', 'university', 'college', 'school', 'academy',
  'institute', 'bank', 'hospital', 'clinic', 'foundation', 'association', 'society', 'club', 'team', 'agency',
  'department', 'ministry', 'studio', 'studios', 'records', 'labs', 'airlines', 'airways', 'church', 'band',
  'restaurant', 'cafe', 'café', 'bar', 'pub', 'bakery', 'hotel', 'cinema', 'theater', 'theatre', 'drafthouse',
  'gym', 'museum', 'library', 'store', 'shop', 'market',
]);

/** Last words that make a name a place. */
const PLACE_HEADS: ReadonlySet<string> = new Set([
  'street', 'st', 'road', 'rd', 'avenue', 'ave', 'boulevard', 'lane', 'square', 'park', 'lake', 'river', 'mountain',
  'mountains', 'mount', 'mt', 'beach', 'bay', 'island', 'islands', 'valley', 'city', 'county', 'state', 'canyon',
  'falls', 'forest', 'coast', 'airport', 'station', 'bridge', 'hill', 'hills',
]);

/** Capitalised kin words used as names ("called Mom"). */
const KIN_NAMES: ReadonlySet<string> = new Set(['mom', 'mum', 'dad', 'mommy', 'daddy', 'grandma', 'grandpa', 'granny', 'nana', 'papa', 'mama']);

/** Holidays are dates, not places, however they are capitalised. */
const HOLIDAYS: ReadonlySet<string> = new Set([
  'christmas', 'xmas', 'easter', 'thanksgiving', 'halloween', 'hanukkah', 'diwali', 'ramadan', 'eid', 'passover',
  'valentine', "valentine's",
]);

/** Capitalised for emphasis or by habit in chat ("Hey Mel, Thanks!"), never names. */
const INTERJECTIONS: ReadonlySet<string> = new Set([
  'thanks', 'thank', 'hey', 'hi', 'hello', 'congrats', 'congratulations', 'wow', 'yeah', 'yes', 'no', 'ok', 'okay',
  'lol', 'omg', 'haha', 'bye', 'cheers', 'sorry', 'please', 'happy', 'birthday', 'cool', 'awesome', 'great',
]);

/** Prepositions after which an unknown name is most likely a place ("at the Alamo Drafthouse", "in Lisbon"). */
const PLACE_PREPOSITIONS: ReadonlySet<string> = new Set(['at', 'in', 'to', 'from', 'near', 'around', 'visit', 'visited', 'into']);

/**
 * Graph key of an entity: lowercase, Unicode-normalised, whitespace collapsed, possessive, quotes and edge
 * punctuation removed, and a leading "the" dropped for names (not for titles, where it belongs to the work).
 */
export function entityKey(name: string, type: EntityType = 'other'): string {
  let key = name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[“”‘’«»"]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  key = stripPossessive(key).replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  if (type !== 'title') key = key.replace(/^the /, '');
  return key;
}

/**
 * People, places and organisations from compromise's tags (the same tags its people()/places()/organizations()
 * read, without three extra passes), plus Title Case names compromise does not know, typed by their last word
 * or the preposition before them. Titles come first and own their words.
 */
export function findEntities(tokens: readonly Token[], titles: readonly Span[]): { entities: Entity[]; covered: Set<number> } {
  const inTitle = new Set<number>();
  for (const title of titles) for (let i = title.start; i <= title.end; i++) inTitle.add(i);
  const covered = new Set(inTitle);

  const entities: Entity[] = [];
  const seen = new Set<string>();
  const add = (name: string, type: EntityType) => {
    const key = entityKey(name, type);
    if (!key || seen.has(`${type}:${key}`)) return;
    seen.add(`${type}:${key}`);
    entities.push({ name: stripPossessive(name), type, key });
  };

  const runs: [number, number][] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (inTitle.has(i) || !nameWord(token)) continue;
    // A capitalised adjective starts a name only when a name follows ("Big Sur"), not alone ("Italian food").
    const next = tokens[i + 1];
    if (modifierOnly(token) && !(next && !inTitle.has(i + 1) && nameWord(next) && !breaksAfter(token))) continue;
    let end = i;
    while (end + 1 < tokens.length) {
      const current = tokens[end] as Token;
      // "Dr. Smith": the full stop of an honorific does not end the name.
      if ((breaksAfter(current) && !current.tags.has('Honorific')) || current.tags.has('Possessive')) break;
      const next = tokens[end + 1] as Token;
      if (!inTitle.has(end + 1) && nameWord(next) && !next.sentenceStart) {
        end++;
        continue;
      }
      // "University of Texas", "Bank of America".
      const after = tokens[end + 2];
      if (next.normal === 'of' && after && !inTitle.has(end + 2) && nameWord(after)) {
        end += 2;
        continue;
      }
      break;
    }
    runs.push([i, end]);
    for (let j = i; j <= end; j++) covered.add(j);
    i = end;
  }

  let titleIndex = 0;
  let runIndex = 0;
  // Emit in text order so the first-mentioned entity comes first.
  while (titleIndex < titles.length || runIndex < runs.length) {
    const title = titles[titleIndex];
    const run = runs[runIndex];
    if (title && (!run || title.start < run[0])) {
      add(title.name, 'title');
      titleIndex++;
    } else if (run) {
      const [start, end] = run;
      add(spanText(tokens, start, end), classify(tokens, start, end));
      runIndex++;
    }
  }
  return { entities, covered };
}

function nameWord(token: Token): boolean {
  if (!token.capitalised || !token.text) return false;
  const tags = token.tags;
  if (tags.has('Pronoun') || tags.has('Determiner') || tags.has('Date') || tags.has('Value')) return false;
  if ((HOLIDAYS.has(token.normal) || INTERJECTIONS.has(token.normal)) && !tags.has('Place')) return false;
  if (tags.has('Person') || tags.has('Place') || tags.has('Organization')) return true;
  // Shouted words and interjections ("SO good", "OMG") are not names.
  if (tags.has('Adverb') || tags.has('Expression') || tags.has('Conjunction') || tags.has('Preposition')) return false;
  if (KIN_NAMES.has(token.lemma)) return !token.sentenceStart || token.proper;
  // At the start of a sentence every word is capitalised; only compromise's lexicon says it is a name there.
  if (token.sentenceStart) return false;
  return token.proper || (tags.has('Noun') && !tags.has('Verb'));
}

/** Nationalities and other adjectives: part of a name at most, never one on their own. */
function modifierOnly(token: Token): boolean {
  const tags = token.tags;
  if (tags.has('Person') || tags.has('Place') || tags.has('Organization')) return false;
  return tags.has('Demonym') || tags.has('Adjective');
}

function classify(tokens: readonly Token[], start: number, end: number): EntityType {
  const words: Token[] = tokens.slice(start, end + 1);
  // The head of "University of Texas" is "University".
  const of = words.findIndex((word) => word.normal === 'of');
  const head = (words[of > 0 ? of - 1 : words.length - 1] as Token).lemma;
  if (ORGANIZATION_HEADS.has(head)) return 'organization';
  if (PLACE_HEADS.has(head)) return 'place';
  if (words.some((w) => w.tags.has('Organization'))) return 'organization';
  if (words.some((w) => w.tags.has('Person'))) return 'person';
  if (words.some((w) => w.tags.has('Place'))) return 'place';
  if (words.length === 1 && KIN_NAMES.has(head)) return 'person';
  // Unknown acronyms are mostly agencies, companies and chains: "the DMV", "IMAX".
  if (words.length === 1 && /^[A-Z][A-Z&]{1,5}s?$/.test(words[0]?.text ?? '')) return 'organization';
  for (let i = start - 1; i >= Math.max(0, start - 2); i--) {
    const before = tokens[i] as Token;
    if (PLACE_PREPOSITIONS.has(before.normal)) return 'place';
    if (!before.tags.has('Determiner')) break;
  }
  return 'other';
}
