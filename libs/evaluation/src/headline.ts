import { recallByCategory, recallKey, sessionRecallByCategory, sessionRecallKey, type RankedQuestion } from './aggregate.js';

/** The figures the targets are stated in, shown per conversation so their spread is visible. */
export const HEADLINE_MEASURES = ['any@10', 'all@10', 'temporal any@10', 'session R@5'] as const;
export type HeadlineMeasure = (typeof HEADLINE_MEASURES)[number];
export type HeadlineFigures = Record<HeadlineMeasure, number | null>;

/** Turn-level any@10 and all@10 over all questions, any@10 of the temporal ones, and session-level R@5. */
export function headlineFigures(questions: readonly RankedQuestion[]): HeadlineFigures {
  const turns = recallByCategory(questions, [10]);
  const sessions = sessionRecallByCategory(questions, [5]);
  return {
    'any@10': turns.all[recallKey('any', 10)] ?? null,
    'all@10': turns.all[recallKey('all', 10)] ?? null,
    'temporal any@10': turns['2'][recallKey('any', 10)] ?? null,
    'session R@5': sessions.all[sessionRecallKey(5)] ?? null,
  };
}
