import { evidenceRecall } from './metrics.js';
import { RETRIEVAL_CATEGORIES, type RetrievalCategory } from './questions.js';
import { sessionRecall } from './session-recall.js';

/** One question as a system answered it. */
export interface RankedQuestion {
  category: RetrievalCategory;
  evidence: readonly string[];
  ranked: ReadonlyArray<string | null>;
}

/** "1".."4" per category, "all" for the four pooled. */
export type CategoryKey = `${RetrievalCategory}` | 'all';
export const CATEGORY_KEYS: readonly CategoryKey[] = [...RETRIEVAL_CATEGORIES.map((c) => `${c}` as CategoryKey), 'all'];

/** Per category, a share of questions per measure (e.g. "any@10"), null when the category had no questions. */
export type RecallFigures = Record<CategoryKey, Record<string, number | null>>;

/** A named yes-or-no judgement of one answered question, e.g. "any@10". */
export type QuestionMeasure = readonly [name: string, hit: (question: RankedQuestion) => boolean];

export function recallKey(kind: 'any' | 'all', k: number): string {
  return `${kind}@${k}`;
}

export function sessionRecallKey(k: number): string {
  return `R@${k}`;
}

/**
 * Evidence recall per category and overall. "all" pools the questions, so each question weighs the same and a
 * category with many questions (single-hop) weighs more than one with few (open-domain).
 */
export function recallByCategory(questions: readonly RankedQuestion[], ks: readonly number[]): RecallFigures {
  return shareByCategory(
    questions,
    ks.flatMap((k): QuestionMeasure[] => [
      [recallKey('any', k), (q) => evidenceRecall(q.ranked, q.evidence, k).any],
      [recallKey('all', k), (q) => evidenceRecall(q.ranked, q.evidence, k).all],
    ]),
  );
}

/**
 * Session-level recall (see sessionRecall) per category and overall, "R@k" for every k. "all" pools the questions
 * of categories 1-4, which is how Engram's LoCoMo figures weigh them.
 */
export function sessionRecallByCategory(questions: readonly RankedQuestion[], ks: readonly number[]): RecallFigures {
  return shareByCategory(
    questions,
    ks.map((k): QuestionMeasure => [sessionRecallKey(k), (q) => sessionRecall(q.ranked, q.evidence, k)]),
  );
}

/** The share of questions each measure holds for, per category and pooled. */
export function shareByCategory(questions: readonly RankedQuestion[], measures: readonly QuestionMeasure[]): RecallFigures {
  const figures = {} as RecallFigures;
  for (const key of CATEGORY_KEYS) {
    const group = key === 'all' ? questions : questions.filter((q) => `${q.category}` === key);
    figures[key] = Object.fromEntries(measures.map(([name, hit]) => [name, share(group.filter(hit).length, group.length)]));
  }
  return figures;
}

export function questionCounts(questions: ReadonlyArray<Pick<RankedQuestion, 'category'>>): Record<CategoryKey, number> {
  const counts = Object.fromEntries(CATEGORY_KEYS.map((key) => [key, 0])) as Record<CategoryKey, number>;
  for (const q of questions) {
    counts[`${q.category}`]++;
    counts.all++;
  }
  return counts;
}

function share(hits: number, total: number): number | null {
  return total === 0 ? null : hits / total;
}
