import { seededRandom } from '@memory/platform';

/**
 * Realistic, varied English memories and queries for load tests: templates filled from word lists with a seeded
 * generator. Varied so that the embedder, the keyword index and the graph see distinct texts of memory length
 * (one to three sentences), not one string repeated, which caches and compresses unrealistically well.
 */
export interface SentenceGenerator {
  /** One memory text: one to three sentences about a person, place, activity, food, feeling or plan. */
  memory(): string;
  /** One search query of the kind an assistant would send about such memories. */
  query(): string;
}

const PEOPLE = ['Alice', 'Ben', 'Carla', 'Deepak', 'Elena', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jonas', 'Keiko', 'Liam', 'Maya', 'Noah', 'Olga', 'Pedro', 'Quinn', 'Rosa', 'Sam', 'Tariq', 'Uma', 'Victor', 'Wen', 'Yusuf', 'Zoe'];
const RELATIONS = ['my sister', 'my brother', 'my manager', 'an old friend', 'my neighbour', 'my cousin', 'my dentist', 'a colleague', 'my landlord', 'my yoga teacher'];
const PLACES = ['Lisbon', 'Kyoto', 'the farmers market', 'the office', 'Berlin', 'the lake house', 'Toronto', 'the climbing gym', 'the library', 'Marrakesh', 'the new bakery on Elm Street', 'the hospital', 'Oslo', 'the community garden', 'Buenos Aires'];
const ACTIVITIES = ['went hiking', 'played chess', 'baked sourdough bread', 'ran a half marathon', 'painted a watercolour', 'fixed the bike', 'learned a new song on the guitar', 'planted tomatoes', 'watched a documentary about whales', 'cleaned out the garage', 'tried rock climbing', 'visited a pottery class', 'read a novel by Ishiguro', 'went sailing', 'built a bookshelf'];
const FOODS = ['spicy ramen', 'mushroom risotto', 'lemon cake', 'tacos al pastor', 'green curry', 'a Greek salad', 'pancakes with blueberries', 'grilled salmon', 'falafel wraps', 'pumpkin soup'];
const FEELINGS = ['happy', 'exhausted', 'anxious', 'proud', 'relieved', 'frustrated', 'excited', 'nostalgic', 'calm', 'overwhelmed'];
const TIMES = ['yesterday', 'last weekend', 'this morning', 'on Tuesday', 'two weeks ago', 'last summer', 'on my birthday', 'in March', 'after work', 'over the holidays'];
const PLANS = ['to book flights', 'to call the insurance company', 'to renew the passport', 'to start a vegetable garden', 'to learn Spanish', 'to visit grandma', 'to finish the quarterly report', 'to adopt a dog', 'to repaint the kitchen', 'to sign up for a pottery course'];
const TOPICS = ['work', 'travel', 'health', 'cooking', 'family', 'money', 'music', 'sports', 'books', 'the garden'];
const PREFERENCES = ['prefers', 'cannot stand', 'is allergic to', 'always orders', 'loves'];

type Pick = <T>(list: readonly T[]) => T;

const MEMORY_TEMPLATES: ReadonlyArray<(pick: Pick) => string> = [
  (p) => `${p(TIMES)} I ${p(ACTIVITIES)} with ${p(PEOPLE)} near ${p(PLACES)}.`,
  (p) => `${p(PEOPLE)} ${p(PREFERENCES)} ${p(FOODS)}, so remember that when we plan dinner.`,
  (p) => `I felt ${p(FEELINGS)} ${p(TIMES)} because ${p(RELATIONS)} ${p(ACTIVITIES)} without me.`,
  (p) => `Reminder: I need ${p(PLANS)} soon; ${p(PEOPLE)} asked about it ${p(TIMES)}.`,
  (p) => `${p(RELATIONS)}, ${p(PEOPLE)}, moved to ${p(PLACES)} ${p(TIMES)} and wants us to visit.`,
  (p) => `We had ${p(FOODS)} at ${p(PLACES)} ${p(TIMES)}; it was the best meal in ages.`,
  (p) => `My goal for the year is ${p(PLANS)}, and ${p(RELATIONS)} ${p(PEOPLE)} promised to help with ${p(TOPICS)}.`,
  (p) => `${p(TIMES)} ${p(PEOPLE)} told me about a problem with ${p(TOPICS)} and I felt ${p(FEELINGS)}.`,
  (p) => `I ${p(ACTIVITIES)} at ${p(PLACES)} ${p(TIMES)}. ${p(PEOPLE)} joined later and we had ${p(FOODS)}.`,
  (p) => {
    const who = p(PEOPLE);
    return `Note to self: ${who}'s birthday is coming up and ${who} ${p(PREFERENCES)} ${p(FOODS)}.`;
  },
];

const QUERY_TEMPLATES: ReadonlyArray<(pick: Pick) => string> = [
  (p) => `What does ${p(PEOPLE)} like to eat?`,
  (p) => `When did I last go to ${p(PLACES)}?`,
  (p) => `What are my plans about ${p(TOPICS)}?`,
  (p) => `Who did I spend time with ${p(TIMES)}?`,
  (p) => `When was I feeling ${p(FEELINGS)}?`,
  (p) => `Where does ${p(RELATIONS)} live now?`,
  (p) => `Have I ever ${p(ACTIVITIES)}?`,
  (p) => `What do I need to do ${p(PLANS).replace(/^to /, 'about ')}?`,
];

/** Deterministic for a seed: the same seed gives the same texts in the same order. */
export function sentenceGenerator(seed: number): SentenceGenerator {
  const random = seededRandom(seed);
  const pick: Pick = (list) => list[Math.floor(random() * list.length)]!;
  const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
  return {
    memory: () => {
      const sentences = 1 + Math.floor(random() * 3);
      return Array.from({ length: sentences }, () => capitalise(pick(MEMORY_TEMPLATES)(pick))).join(' ');
    },
    query: () => pick(QUERY_TEMPLATES)(pick),
  };
}
