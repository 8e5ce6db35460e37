import type { Token } from './tokens.js';

/**
 * Life areas people ask their memories about, each with the lemmas that put a memory in it. These are
 * weighted above WordNet's lexicographer themes because they are the words users search with ("what did I do
 * for work", "anything about my health"). Words that name other things as often as the area (fire, date,
 * match, show, run) are left out; gerunds are listed as such ("painting") so the bare verb does not count.
 */
export const LIFE_AREAS: Readonly<Record<string, readonly string[]>> = {
  family: ['family', 'mom', 'mum', 'mother', 'dad', 'father', 'parent', 'sister', 'brother', 'sibling', 'son', 'daughter', 'kid', 'child', 'baby', 'grandma', 'grandpa', 'grandmother', 'grandfather', 'grandparent', 'aunt', 'uncle', 'cousin', 'niece', 'nephew', 'wife', 'husband', 'in-law'],
  work: ['work', 'job', 'office', 'boss', 'colleague', 'coworker', 'co-worker', 'manager', 'meeting', 'project', 'deadline', 'career', 'promotion', 'client', 'interview', 'hire', 'startup', 'company', 'employer', 'workplace'],
  health: ['health', 'doctor', 'hospital', 'clinic', 'sick', 'ill', 'illness', 'disease', 'medication', 'medicine', 'pill', 'prescription', 'symptom', 'pain', 'headache', 'migraine', 'fever', 'flu', 'covid', 'surgery', 'therapy', 'therapist', 'dentist', 'allergy', 'allergic', 'injury', 'diagnose', 'diagnosis', 'checkup', 'vaccine', 'blood pressure', 'diet', 'sleep', 'anxiety', 'depression', 'hurt', 'ache'],
  fitness: ['gym', 'workout', 'exercise', 'running', 'jog', 'marathon', 'yoga', 'pilates', 'training', 'fitness', 'swim', 'swimming', 'cycling'],
  travel: ['travel', 'trip', 'vacation', 'holiday', 'flight', 'airport', 'hotel', 'passport', 'journey', 'abroad', 'tour', 'tourist', 'sightseeing', 'cruise', 'road trip', 'backpacking', 'resort', 'visa', 'luggage'],
  food: ['food', 'eat', 'dinner', 'lunch', 'breakfast', 'brunch', 'meal', 'restaurant', 'cook', 'cooking', 'recipe', 'bake', 'baking', 'pizza', 'pasta', 'sushi', 'coffee', 'tea', 'cake', 'dessert', 'snack', 'cafe', 'wine', 'beer', 'ice cream', 'vegan', 'vegetarian'],
  hobbies: ['hobby', 'hike', 'hiking', 'painting', 'drawing', 'guitar', 'piano', 'violin', 'gardening', 'knitting', 'photography', 'camera', 'fishing', 'camping', 'climbing', 'chess', 'pottery', 'craft', 'sewing', 'collection', 'dance', 'dancing', 'woodworking', 'puzzle', 'board game'],
  entertainment: ['movie', 'film', 'cinema', 'theater', 'theatre', 'series', 'tv', 'television', 'netflix', 'concert', 'music', 'song', 'album', 'band', 'podcast', 'game', 'video game', 'festival', 'comedy', 'book', 'novel'],
  education: ['school', 'class', 'course', 'university', 'college', 'exam', 'study', 'student', 'teacher', 'professor', 'homework', 'degree', 'lecture', 'learn', 'graduate', 'graduation', 'semester', 'thesis', 'tutor'],
  finance: ['money', 'bank', 'budget', 'salary', 'pay', 'rent', 'mortgage', 'invest', 'investment', 'stock', 'saving', 'savings', 'loan', 'debt', 'tax', 'bill', 'price', 'expensive', 'cheap', 'afford', 'cost', 'income', 'insurance'],
  relationships: ['friend', 'friendship', 'girlfriend', 'boyfriend', 'partner', 'dating', 'wedding', 'marry', 'married', 'marriage', 'divorce', 'breakup', 'crush', 'relationship', 'anniversary', 'engage', 'engaged', 'engagement', 'romance'],
  pets: ['pet', 'dog', 'puppy', 'cat', 'kitten', 'vet', 'veterinarian', 'hamster', 'parrot', 'rabbit', 'bunny', 'leash'],
  sports: ['sport', 'football', 'soccer', 'basketball', 'baseball', 'tennis', 'golf', 'hockey', 'league', 'championship', 'tournament', 'coach'],
};

const AREA_OF = new Map<string, string>();
for (const [area, words] of Object.entries(LIFE_AREAS)) for (const word of words) if (!AREA_OF.has(word)) AREA_OF.set(word, area);

export const MAX_THEMES = 5;
const AREA_WEIGHT = 2;
const LEXNAME_WEIGHT = 1;

/**
 * Life areas touched by the tokens: by lemma, by surface form ("hiking"), and by two-word phrase ("road trip").
 * Words of names and titles are skipped: "Project Hail Mary" is not about work.
 */
export function lifeAreas(tokens: readonly Token[], skip: ReadonlySet<number> = new Set()): string[] {
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (skip.has(token.i)) continue;
    const next = tokens[i + 1];
    const pair = next ? AREA_OF.get(`${token.lemma} ${next.lemma}`) : undefined;
    const area = pair ?? AREA_OF.get(token.lemma) ?? AREA_OF.get(token.normal);
    if (area) out.push(area);
  }
  return out;
}

/**
 * Rank themes by weighted count (life areas count double), ties broken by first appearance, and keep the top
 * few: a long list would spread the embedding suffix over everything.
 */
export function rankThemes(areas: readonly string[], lexThemes: readonly string[], extra: readonly string[] = []): string[] {
  const score = new Map<string, { weight: number; first: number }>();
  let order = 0;
  const add = (theme: string, weight: number) => {
    const seen = score.get(theme);
    if (seen) seen.weight += weight;
    else score.set(theme, { weight, first: order++ });
  };
  for (const theme of extra) add(theme, AREA_WEIGHT);
  for (const area of areas) add(area, AREA_WEIGHT);
  for (const theme of lexThemes) add(theme, LEXNAME_WEIGHT);
  return [...score.entries()]
    .sort((a, b) => b[1].weight - a[1].weight || a[1].first - b[1].first)
    .slice(0, MAX_THEMES)
    .map(([theme]) => theme);
}
