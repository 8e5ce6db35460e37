import { evidenceRecall } from './metrics.js';
import { RETRIEVAL_CATEGORIES, type RetrievalCategory } from './questions.js';

/** One question as a system answered it. */
export interface RankedQuestion {
  category: RetrievalCategory;
  evidence: readonly string[];
  ranked: ReadonlyArray<string | null>;
}

/** "1".."4" per category, "all" for the four pooled. */
export type CategoryKey = `${RetrievalCategory}` | 'all';
export const CATEGORY_KEYS: readonly CategoryKey[] = [...RETRIEVAL_CATEGORIES.map((c) => `${c}` as CategoryKey), 'all'];

/** Per category, "any@k" and "all@k" for every k: the share of questions recalled, null when there were none. */
export type RecallFigures = Record<CategoryKey, Record<string, number | null>>;

export function recallKey(kind: 'any' | 'all', k: number): string {
  return `${kind}@${k}`;
}

/**
 * Evidence recall per category and overall. "all" pools the questions, so each question weighs the same and a
 * category with many questions (single-hop) weighs more than one with few (open-domain).
 */
export function recallByCategory(questions: readonly RankedQuestion[], ks: readonly number[]): RecallFigures {
  const figures = {} as RecallFigures;
  for (const key of CATEGORY_KEYS) {
    const group = key === 'all' ? questions : questions.filter((q) => `${q.category}` === key);
    const row: Record<string, number | null> = {};
    for (const k of ks) {
      const recalls = group.map((q) => evidenceRecall(q.ranked, q.evidence, k));
      row[recallKey('any', k)] = share(recalls.filter((r) => r.any).length, group.length);
      row[recallKey('all', k)] = share(recalls.filter((r) => r.all).length, group.length);
    }
    figures[key] = row;
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
