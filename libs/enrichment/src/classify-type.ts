import type { TextMemoryType } from './memory-types.js';
import type { Token } from './tokens.js';

/**
 * Memory type by weighted cues; the highest score wins, ties go to the earlier type in PRECEDENCE, and below
 * MIN_SCORE the memory is a fact. userContext is scored the same way at half weight: it can tip a close call
 * ("health journal") but not outvote the text.
 *
 * | type         | cue (on the text with contractions expanded)                                   | score           |
 * |--------------|--------------------------------------------------------------------------------|-----------------|
 * | plan         | will, shall, going to + verb, plan/intend to, scheduled, looking forward to    | 3, +1 with a    |
 * |              | future time word (tomorrow, tonight, next week, upcoming, soon) alone          | 2  future word  |
 * | preference   | like/love/enjoy/prefer/hate as a present-tense verb; favorite, fan of,          | 3               |
 * |              | can't stand, into; the same verbs in the past tense                            | 1               |
 * | goal         | want/hope/aim/try to, would like to, goal, dream of, determined to, resolution | 3.5             |
 * | health       | doctor, medication, sick, diagnosis, surgery, symptom... (each further +0.5)   | 3.5 (max 5)     |
 * |              | hurt, tired, stress, sleep only add to a health cue                            | +0.5            |
 * | relationship | married, engaged, divorced, dating, broke up, proposed, anniversary;           | 4               |
 * |              | "X is my friend"; met / friends with / fell in love + a person or kin word     | 4 / 3           |
 * | event        | a past-tense verb and a time (a date word, an ISO date, ago, last night)        | 3, +0.5 for     |
 * |              |                                                                                | attend/visit/.. |
 * | experience   | first person and a past-tense verb, no time given                             | 2.5 (2 if time) |
 * | opinion      | I think/believe/feel that/reckon, in my opinion, overrated, underrated         | 3               |
 * | fact         | everything else                                                                |                 |
 *
 * Health outranks event and experience on purpose: "went to the doctor yesterday" is filed under health.
 * The content reaches this stage with relative dates already resolved to ISO timestamps, so a resolved
 * "tomorrow" no longer reads as future in the words: the resolver's periods say it instead (futureReference,
 * scored like a future time word).
 */
export const PRECEDENCE: readonly TextMemoryType[] = [
  'plan', 'preference', 'goal', 'health', 'relationship', 'event', 'experience', 'opinion',
];
const MIN_SCORE = 2;
const CONTEXT_WEIGHT = 0.5;

const FUTURE_MARKER =
  /\b(?:will|shall|(?<!(?:was|were) )going to (?!the |a |an |my |our |his |her |their |be going\b)[a-z]+|plan(?:s|ned|ning)? to|planning|intend(?:s|ing)? to|scheduled|about to|looking forward to)\b/;
const FUTURE_TIME =
  /\b(?:tomorrow|tonight|next (?:week|weekend|month|year|time|monday|tuesday|wednesday|thursday|friday|saturday|sunday|summer|winter|spring|fall|autumn)|this coming|upcoming|later today|soon|in (?:a|two|three|a few) (?:days|weeks|months))\b/;
const PREFERENCE_PHRASE = /\b(?:favou?rite|fan of|can not stand|cannot stand|am (?:really )?into|are (?:really )?into|prefer)\b/;
const PREFERENCE_VERBS: ReadonlySet<string> = new Set(['like', 'love', 'enjoy', 'prefer', 'hate', 'adore', 'dislike', 'detest', 'loathe']);
/** Words after which "like" compares ("looks like", "just like") instead of stating a taste. */
const LIKE_COMPARES_AFTER: ReadonlySet<string> = new Set(['feel', 'felt', 'look', 'looks', 'looked', 'seem', 'seems', 'seemed', 'sound', 'sounds', 'sounded', 'just', 'more', 'something', 'anything', 'nothing', 'is', 'was', 'be']);
const GOAL =
  /\b(?:(?:want|wants|hope|hopes|hoping|aim|aims|aiming|trying|try|tries|plan on|strive|striving) to|would (?:like|love) to|goals?|dream(?:s|ing)? (?:of|about|to)|determined to|resolution|working (?:toward|towards)|aspire|aspiring|wish i could|bucket list)\b/;
const HEALTH_STRONG: ReadonlySet<string> = new Set([
  'doctor', 'physician', 'gp', 'hospital', 'clinic', 'sick', 'ill', 'illness', 'disease', 'medication', 'medicine',
  'pill', 'prescription', 'symptom', 'pain', 'headache', 'migraine', 'fever', 'flu', 'covid', 'surgery', 'therapy',
  'therapist', 'dentist', 'allergy', 'allergic', 'injury', 'injure', 'diagnose', 'diagnosis', 'checkup', 'vaccine',
  'diabetes', 'cancer', 'asthma', 'infection', 'physiotherapy', 'physio', 'nurse', 'sprain', 'fracture', 'antibiotic',
  'cholesterol', 'depression', 'anxiety', 'insomnia', 'rash', 'cough', 'nausea', 'dose', 'treatment',
]);
const HEALTH_WEAK: ReadonlySet<string> = new Set(['blood', 'hurt', 'ache', 'tired', 'exhausted', 'stress', 'sleep', 'diet', 'weight', 'knee', 'back']);
const RELATION_STRONG =
  /\b(?:married|marry|marrying|engaged|divorced|divorcing|dating|broke up|break up|breaking up|split up|proposed|anniversary|moved in (?:with|together))\b/;
const RELATION_NOUN =
  '(?:wife|husband|partner|girlfriend|boyfriend|fiance|fiancee|friend|bestie|mom|mum|mother|dad|father|sister|brother|son|daughter|cousin|aunt|uncle|grandma|grandpa|grandmother|grandfather|niece|nephew|boss|colleague|coworker|neighbor|neighbour|roommate|mentor|ex)';
const RELATION_IS = new RegExp(`\\b(?:is|are|was|were|became) (?:my|our|his|her|their) (?:[a-z]+ )?${RELATION_NOUN}s?\\b`);
const RELATION_WEAK = /\b(?:met|meet|friends with|fell in love|in love with|related to|introduced|get along|got along|argued with|fight with|fought with|reconnected)\b/;
const RELATION_WORD = new RegExp(`\\b${RELATION_NOUN}s?\\b`);
const TIME_WORDS = /\b(?:ago|yesterday|last (?:night|week|weekend|month|year|time|summer|winter|spring|fall|autumn|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|this (?:morning|afternoon|evening)|earlier today|on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b/;
// Resolved dates arrive as ISO 8601 ("2023-05-05" or "2023-05-05T18:00:00.000Z", lowercased here).
const ISO_DATE = /\b\d{4}-\d{2}-\d{2}(?:t|\b)/;
const EVENT_VERBS: ReadonlySet<string> = new Set(['attend', 'visit', 'celebrate', 'go', 'see', 'watch', 'host', 'win', 'graduate', 'travel', 'fly', 'move', 'meet', 'throw', 'join', 'perform', 'run', 'finish', 'start']);
/** compromise leaves "was" in "was reading" without a tense tag. */
const PAST_AUXILIARIES: ReadonlySet<string> = new Set(['was', 'were', 'had', 'did']);
const FIRST_PERSON: ReadonlySet<string> = new Set(['i', 'we', 'me', 'us', 'my', 'our']);
const OPINION =
  /\b(?:(?:i|we) (?:really |honestly |personally |still |do |do not )?(?:think|believe|reckon|suppose|guess|feel that|feel like|find that)|in my (?:opinion|view)|imo|imho|overrated|underrated|to be honest)\b/;

export interface TypeInput {
  tokens: readonly Token[];
  contextTokens: readonly Token[];
  /** People found by entity extraction; a relation verb needs someone to relate to. */
  personCount: number;
  /** A mentioned period starts after the instant the text was written. */
  futureReference?: boolean;
}

export function classifyMemoryType(input: TypeInput): TextMemoryType {
  const scores = new Map<TextMemoryType, number>();
  const content = scoreText(input.tokens, input.personCount, input.futureReference ?? false);
  const context = scoreText(input.contextTokens, 0, false);
  for (const type of PRECEDENCE) scores.set(type, (content.get(type) ?? 0) + CONTEXT_WEIGHT * (context.get(type) ?? 0));
  let best: TextMemoryType = 'fact';
  let bestScore = MIN_SCORE - Number.EPSILON;
  for (const type of PRECEDENCE) {
    const score = scores.get(type) ?? 0;
    if (score > bestScore) {
      best = type;
      bestScore = score;
    }
  }
  return best;
}

function scoreText(tokens: readonly Token[], personCount: number, futureReference: boolean): Map<TextMemoryType, number> {
  const scores = new Map<TextMemoryType, number>();
  if (tokens.length === 0) return scores;
  // Names are masked so "Will" or "Hope" never reads as a cue word.
  const text = ` ${tokens
    .map((t) => (t.proper && !t.tags.has('Pronoun') ? '_name_' : t.normal))
    .join(' ')
    .replace(/[^a-z0-9_'\- ]+/g, ' ')
    .replace(/\s+/g, ' ')} `;
  const lemmas = new Set(tokens.map((t) => t.lemma));

  const future = FUTURE_MARKER.test(text);
  const futureTime = futureReference || FUTURE_TIME.test(text);
  if (future || futureTime) scores.set('plan', future ? (futureTime ? 4 : 3) : 2);

  const preference = preferenceScore(tokens, text);
  if (preference > 0) scores.set('preference', preference);

  if (GOAL.test(text)) scores.set('goal', 3.5);

  let health = 0;
  for (const lemma of lemmas) if (HEALTH_STRONG.has(lemma)) health = health === 0 ? 3.5 : health + 0.5;
  if (health > 0) {
    for (const lemma of lemmas) if (HEALTH_WEAK.has(lemma)) health += 0.5;
    scores.set('health', Math.min(health, 5));
  }

  const someone = personCount > 0 || RELATION_WORD.test(text);
  if (RELATION_STRONG.test(text) || RELATION_IS.test(text)) scores.set('relationship', 4);
  else if (someone && RELATION_WEAK.test(text)) scores.set('relationship', 3);

  const past = tokens.some((t) => (t.tags.has('PastTense') && !t.tags.has('Modal')) || PAST_AUXILIARIES.has(t.normal));
  const timed = TIME_WORDS.test(text) || ISO_DATE.test(text) || tokens.some((t) => t.tags.has('Date') && !t.tags.has('Duration') && !/^weekends?$/.test(t.normal));
  const firstPerson = tokens.some((t) => FIRST_PERSON.has(t.normal));
  if (past && timed) scores.set('event', tokens.some((t) => t.tags.has('PastTense') && EVENT_VERBS.has(t.lemma)) ? 3.5 : 3);
  if (past && firstPerson) scores.set('experience', timed ? 2 : 2.5);

  if (OPINION.test(text)) scores.set('opinion', 3);
  return scores;
}

function preferenceScore(tokens: readonly Token[], text: string): number {
  if (PREFERENCE_PHRASE.test(text)) return 3;
  let best = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (!PREFERENCE_VERBS.has(token.lemma)) continue;
    const before = tokens[i - 1];
    if (before && token.lemma === 'like' && LIKE_COMPARES_AFTER.has(before.normal)) continue;
    // "would love to" is a wish: goal, not preference.
    if (before?.normal === 'would') continue;
    // compromise sometimes tags a negated "like" as a preposition; a pronoun, negation or adverb before it says verb.
    const verbal = token.tags.has('Verb') || (before !== undefined && (before.tags.has('Pronoun') || before.tags.has('Negative') || before.tags.has('Adverb')));
    if (!verbal) continue;
    best = Math.max(best, token.tags.has('PastTense') ? 1 : 3);
  }
  return best;
}
